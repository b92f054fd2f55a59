/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cli.h: the pieces of the pisa-model tool (main.c, ports.c, ctlsock.c).
 * Not a library interface: everything here belongs to the one binary.
 */
#ifndef PISA_MODEL_CLI_H
#define PISA_MODEL_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <pcap/pcap.h>

#include "pisa_model.h"

enum port_kind { PORT_PCAP, PORT_IF };

struct port {
	uint16_t num;
	enum port_kind kind;
	char *spec;		/* as given, for messages */
	/* pcap: IN and OUT, either may be absent */
	char *in_path, *out_path;
	pcap_t *in, *out_dead;
	pcap_dumper_t *dump;
	int have_next;		/* next input packet read ahead */
	struct pcap_pkthdr next_hdr;
	uint8_t *next_data;
	uint64_t next_us;
	/* if: an AF_PACKET socket */
	char *ifname;
	int fd;
	int ifindex;
	uint64_t rx, tx, tx_errors;
};

/* ports.c */
/* Parses "N=pcap:IN,OUT" or "N=if:NAME"; 0, or -1 with a message in err. */
int port_parse(const char *spec, struct port *p, char *err, size_t errlen);
/* Opens files or the interface; 0, or with "what: why" in err -1 (the
 * input file is bad) or -2 (an output file or the interface failed). */
int port_open(struct port *p, char *err, size_t errlen);
/* pcap input: reads ahead the next packet (have_next), 0 at the end,
 * -1 with err on a read error. */
int port_pcap_advance(struct port *p, char *err, size_t errlen);
/* if input: one packet into buf, returns its length, 0 none, -1 error. */
long port_if_recv(struct port *p, uint8_t *buf, size_t cap);
/* Writes a packet leaving the switch on this port. */
void port_send(struct port *p, const uint8_t *data, size_t len, uint64_t time_us);
void port_close(struct port *p);

/* The running switch, shared by the event loop and the control socket. */
struct app {
	const char *prog;
	struct pisa_image *img;
	struct pisa_model *m;
	char board[16];
	struct port *ports;
	unsigned nports;
	int trace;
	uint64_t clock_us;	/* the model's clock, never decreasing */
	struct ctl *ctl;
	uint64_t unattached;	/* packets to ports with no wire and no control client */
	uint64_t digests_dropped;
	const char *commands;	/* --commands FILE */
	uint64_t pcap_packets;	/* injected from pcap inputs */
	double pcap_seconds;	/* wall time until the last pcap input was injected */
};

/* main.c */
int app_inject(struct app *a, uint16_t port, const uint8_t *data, size_t len, uint64_t time_us);
/* Runs img from now on, with empty state; takes img. */
int app_load(struct app *a, struct pisa_image *img, char *detail, size_t dlen);
int app_reset(struct app *a);
uint64_t app_now_us(void);

/* ctlsock.c */
struct ctl;
/* Listens on path (mode 0660); NULL with err. image: the loaded bytes. */
struct ctl *ctl_open(struct app *a, const char *path, const uint8_t *image, size_t image_len,
		     char *err, size_t errlen);
/* Up to 2 poll entries: returns how many it filled. */
int ctl_pollfds(struct ctl *c, struct pollfd *pfd);
void ctl_events(struct ctl *c, const struct pollfd *pfd, int n);
int ctl_connected(const struct ctl *c);
void ctl_packet_in(struct ctl *c, uint16_t port, const uint8_t *data, size_t len);
void ctl_digest(struct ctl *c, uint16_t id, const uint8_t *data, size_t len);
/* The switch changed its model (image load, reset). */
void ctl_set_model(struct ctl *c, struct pisa_model *m);
void ctl_close(struct ctl *c);

#endif
