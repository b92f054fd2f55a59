/* SPDX-License-Identifier: Apache-2.0 */
/*
 * main.c: pisa-model, the OpenPISA pipeline in software as a switch: an
 * image, ports on pcap files or Linux interfaces, a control socket.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "pisa_ctl.h"
#include "pisa_file.h"

#define EXIT_OK 0
#define EXIT_INPUT 1
#define EXIT_SYSTEM 2
#define EXIT_USAGE 3

static const char usage_text[] =
"usage: pisa-model IMAGE [--port N=pcap:IN.pcap,OUT.pcap]... [--port N=if:IFNAME]...\n"
"                  [--commands FILE] [--control PATH] [--trace] [--stats]\n"
"\n"
"Runs the config image IMAGE (written by p4lower) in software, bit for bit as\n"
"the hardware pipeline does, as a switch.\n"
"\n"
"  --port N=pcap:IN,OUT  port N (0..510) reads packets from the pcap file IN\n"
"                        and writes the packets leaving port N to the pcap file\n"
"                        OUT (Ethernet link type). N=pcap:IN only reads,\n"
"                        N=pcap:,OUT only writes. Packets of all input files\n"
"                        are injected in timestamp order, as fast as they run,\n"
"                        with the model's clock (ingress timestamps, meters)\n"
"                        taken from the pcap timestamps; output records carry\n"
"                        the timestamp of the packet that caused them.\n"
"  --port N=if:IFNAME    port N is the Linux interface IFNAME, through an\n"
"                        AF_PACKET raw socket in promiscuous mode (needs\n"
"                        CAP_NET_RAW).\n"
"  --control PATH        listens on the Unix stream socket PATH (mode 0660, an\n"
"                        old socket there is replaced) for one control client at\n"
"                        a time, speaking docs/control-protocol.md (pisad,\n"
"                        pisactl, pisa_link). Packet-out enters ingress on the\n"
"                        port it names. Packets leaving the CPU port, or any\n"
"                        port with no --port, go to the client as packet-in;\n"
"                        digests go to the client too. With no client they are\n"
"                        counted and dropped.\n"
"  --commands FILE       runs the simple_switch_CLI commands in FILE (one a\n"
"                        line, # comments) before the first packet; the first\n"
"                        failing line stops pisa-model with exit code 1.\n"
"  --trace               prints every pipeline event to stderr.\n"
"  --stats               prints counters to stdout at exit, one 'name value'\n"
"                        line each, with the time the pcap inputs took and the\n"
"                        packets per second that makes (pcap_seconds, pcap_pps).\n"
"  -h, --help            prints this text.\n"
"\n"
"pisa-model exits once every pcap input is consumed if there is neither an\n"
"if: port nor a control socket; otherwise it runs until SIGINT or SIGTERM.\n"
"\n"
"Exit codes:\n"
"  0  ok\n"
"  1  bad image or input (unreadable or malformed image, pcap file, packet)\n"
"  2  system error (control socket, interface, output file)\n"
"  3  usage error\n";

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

uint64_t app_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static struct port *find_port(struct app *a, uint16_t num)
{
	unsigned i;

	for (i = 0; i < a->nports; i++)
		if (a->ports[i].num == num)
			return &a->ports[i];
	return NULL;
}

static void on_out(void *arg, uint16_t port, const uint8_t *data, size_t len)
{
	struct app *a = arg;
	struct port *p = find_port(a, port);

	if (p) {
		port_send(p, data, len, a->clock_us);
		return;
	}
	if (ctl_connected(a->ctl)) {
		ctl_packet_in(a->ctl, port, data, len);
		return;
	}
	a->unattached++;
}

static void on_digest(void *arg, uint16_t id, const uint8_t *data, size_t len)
{
	struct app *a = arg;

	if (ctl_connected(a->ctl))
		ctl_digest(a->ctl, id, data, len);
	else
		a->digests_dropped++;
}

static void setup_model(struct app *a, struct pisa_model *m)
{
	pisa_model_set_digest_cb(m, on_digest, a);
	pisa_model_set_trace(m, a->trace ? stderr : NULL);
}

int app_inject(struct app *a, uint16_t port, const uint8_t *data, size_t len, uint64_t time_us)
{
	if (time_us > a->clock_us)
		a->clock_us = time_us;
	return pisa_model_inject(a->m, port, data, len, a->clock_us, on_out, a);
}

int app_load(struct app *a, struct pisa_image *img, char *detail, size_t dlen)
{
	struct pisa_model *m = pisa_model_new(img);

	if (!m) {
		snprintf(detail, dlen, "no memory for the model");
		return -PISA_E_NOMEM;
	}
	setup_model(a, m);
	pisa_model_free(a->m);
	pisa_image_free(a->img);
	a->m = m;
	a->img = img;
	if (a->ctl)
		ctl_set_model(a->ctl, m);
	if (a->trace)
		fprintf(stderr, "pisa-model: loaded image '%s' over the control socket\n",
			img->program);
	return 0;
}

int app_reset(struct app *a)
{
	struct pisa_model *m = pisa_model_new(a->img);

	if (!m)
		return -PISA_E_NOMEM;
	setup_model(a, m);
	pisa_model_free(a->m);
	a->m = m;
	if (a->ctl)
		ctl_set_model(a->ctl, m);
	return 0;
}

static void print_stats(struct app *a)
{
	struct pisa_model_stats st;
	unsigned i;

	pisa_model_get_stats(a->m, &st);
	printf("rx_packets %llu\n", (unsigned long long)st.rx_packets);
	printf("tx_packets %llu\n", (unsigned long long)st.tx_packets);
	printf("dropped %llu\n", (unsigned long long)st.dropped);
	printf("oversize %llu\n", (unsigned long long)st.oversize);
	printf("parser_errors %llu\n", (unsigned long long)st.parser_errors);
	printf("pass_limit %llu\n", (unsigned long long)st.pass_limit);
	printf("digests %llu\n", (unsigned long long)st.digests);
	printf("unattached %llu\n", (unsigned long long)a->unattached);
	printf("pcap_seconds %.6f\n", a->pcap_seconds);
	printf("pcap_pps %.0f\n", a->pcap_seconds > 0 ? a->pcap_packets / a->pcap_seconds : 0.0);
	printf("digests_dropped %llu\n", (unsigned long long)a->digests_dropped);
	for (i = 0; i < a->nports; i++)
		printf("port%u_rx %llu\nport%u_tx %llu\n", a->ports[i].num,
		       (unsigned long long)a->ports[i].rx, a->ports[i].num,
		       (unsigned long long)a->ports[i].tx);
}

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "pisa-model: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'pisa-model --help'.\n");
	return EXIT_USAGE;
}

/* The pcap port whose next packet is the oldest (first on ties). */
static struct port *next_pcap(struct app *a)
{
	struct port *best = NULL;
	unsigned i;

	for (i = 0; i < a->nports; i++) {
		struct port *p = &a->ports[i];

		if (p->kind == PORT_PCAP && p->have_next && (!best || p->next_us < best->next_us))
			best = p;
	}
	return best;
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int run(struct app *a, int have_if)
{
	static uint8_t pkt[PISA_MODEL_MAX_PACKET + 4096];
	struct pollfd pfd[64];
	char err[512];
	unsigned i, burst;
	double pcap_start = now_seconds();
	int pcap_done = !next_pcap(a);

	while (!stop) {
		struct port *p;
		int n = 0, r, timeout;

		/* a burst of pcap packets, then a look at the sockets */
		for (burst = 0; burst < 64 && (p = next_pcap(a)); burst++) {
			p->rx++;
			a->pcap_packets++;
			r = app_inject(a, p->num, p->next_data, p->next_hdr.caplen, p->next_us);
			if (r < 0)
				fprintf(stderr, "pisa-model: %s: packet %llu: %s\n", p->in_path,
					(unsigned long long)p->rx, pisa_strerror(r));
			if (port_pcap_advance(p, err, sizeof(err)) < 0) {
				fprintf(stderr, "pisa-model: %s\n", err);
				return EXIT_INPUT;
			}
		}
		if (!pcap_done && !next_pcap(a)) {
			pcap_done = 1;
			a->pcap_seconds = now_seconds() - pcap_start;
		}
		if (!next_pcap(a) && !have_if && !a->ctl)
			break;
		for (i = 0; i < a->nports && n < 60; i++)
			if (a->ports[i].kind == PORT_IF)
				pfd[n++] = (struct pollfd){ a->ports[i].fd, POLLIN, 0 };
		if (a->ctl)
			n += ctl_pollfds(a->ctl, &pfd[n]);
		timeout = next_pcap(a) ? 0 : -1;
		r = poll(pfd, (nfds_t)n, timeout);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "pisa-model: poll: %s\n", strerror(errno));
			return EXIT_SYSTEM;
		}
		for (i = 0; i < (unsigned)n; i++) {
			struct port *ip = NULL;
			unsigned k;

			if (!pfd[i].revents)
				continue;
			for (k = 0; k < a->nports; k++)
				if (a->ports[k].kind == PORT_IF && a->ports[k].fd == pfd[i].fd)
					ip = &a->ports[k];
			if (!ip) {
				ctl_events(a->ctl, &pfd[i], 1);
				continue;
			}
			for (k = 0; k < 64; k++) {
				long len = port_if_recv(ip, pkt, sizeof(pkt));

				if (len <= 0) {
					if (len < 0) {
						fprintf(stderr, "pisa-model: %s: receive: %s\n",
							ip->ifname, strerror(errno));
						return EXIT_SYSTEM;
					}
					break;
				}
				ip->rx++;
				app_inject(a, ip->num, pkt, (size_t)len, app_now_us());
			}
		}
	}
	return EXIT_OK;
}

static void free_ports(struct app *a)
{
	unsigned k;

	for (k = 0; k < a->nports; k++)
		port_close(&a->ports[k]);
	free(a->ports);
	a->ports = NULL;
	a->nports = 0;
}

/* --commands: simple_switch_CLI lines through the control plane, in process. */
static int run_commands(struct app *a, const char *path)
{
	FILE *f = fopen(path, "r"), *out;
	struct pisa_ctl *c;
	char line[4096], err[512];
	unsigned lineno = 0;
	int rc = EXIT_OK;

	if (!f) {
		fprintf(stderr, "pisa-model: --commands: %s: %s\n", path, strerror(errno));
		return EXIT_INPUT;
	}
	c = pisa_ctl_new(a->img, &pisa_model_ops, a->m);
	if (!c || pisa_ctl_init(c) < 0) {
		fprintf(stderr, "pisa-model: --commands: cannot set up the control plane\n");
		fclose(f);
		pisa_ctl_free(c);
		return EXIT_SYSTEM;
	}
	/* what the commands print is for people; keep it only when tracing */
	out = a->trace ? stderr : fopen("/dev/null", "w");
	while (out && fgets(line, sizeof(line), f)) {
		char *p = line;

		lineno++;
		line[strcspn(line, "\r\n")] = 0;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#')
			continue;
		if (pisa_ctl_exec(c, p, out, err, sizeof(err)) < 0) {
			fprintf(stderr, "pisa-model: %s:%u: %s\n", path, lineno, err);
			rc = EXIT_INPUT;
			break;
		}
	}
	if (out && out != stderr)
		fclose(out);
	fclose(f);
	pisa_ctl_free(c);
	return rc;
}

/* Returns -1 to go on, else the exit code. */
static int parse_args(struct app *a, int argc, char **argv, const char **image,
		      const char **control, int *stats, int *have_if)
{
	char err[512];
	int i;

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
			fputs(usage_text, stdout);
			return EXIT_OK;
		} else if (!strcmp(arg, "--trace")) {
			a->trace = 1;
		} else if (!strcmp(arg, "--stats")) {
			*stats = 1;
		} else if (!strcmp(arg, "--port") || !strncmp(arg, "--port=", 7)) {
			const char *v = arg[6] == '=' ? arg + 7 : (i + 1 < argc ? argv[++i] : NULL);

			if (!v)
				return usage_error("--port: needs a value: %s",
						   "N=pcap:IN,OUT or N=if:NAME");
			if (port_parse(v, &a->ports[a->nports], err, sizeof(err)) < 0)
				return usage_error("--port: %s", err);
			if (find_port(a, a->ports[a->nports].num)) {
				port_close(&a->ports[a->nports]);
				return usage_error("--port: '%s': port given twice", v);
			}
			if (a->ports[a->nports].kind == PORT_IF)
				*have_if = 1;
			a->nports++;
		} else if (!strcmp(arg, "--commands") || !strncmp(arg, "--commands=", 11)) {
			const char *v = arg[10] == '=' ? arg + 11 : (i + 1 < argc ? argv[++i] : NULL);

			if (!v || !*v)
				return usage_error("--commands: needs a %s", "file");
			a->commands = v;
		} else if (!strcmp(arg, "--control") || !strncmp(arg, "--control=", 10)) {
			const char *v = arg[9] == '=' ? arg + 10 : (i + 1 < argc ? argv[++i] : NULL);

			if (!v || !*v)
				return usage_error("--control: needs a %s", "socket path");
			*control = v;
		} else if (arg[0] == '-' && arg[1]) {
			return usage_error("unknown option '%s'", arg);
		} else if (!*image) {
			*image = arg;
		} else {
			return usage_error("'%s': only one IMAGE", arg);
		}
	}
	if (!*image)
		return usage_error("%s", "no IMAGE given");
	return -1;
}

int main(int argc, char **argv)
{
	struct app a;
	const char *image = NULL, *control = NULL;
	char detail[512], err[512];
	int stats = 0, have_if = 0, rc, r;
	unsigned k;
	uint8_t *bytes = NULL;
	size_t blen = 0;
	struct sigaction sa;

	memset(&a, 0, sizeof(a));
	a.prog = "pisa-model";
	a.ports = calloc((size_t)argc, sizeof(*a.ports));
	if (!a.ports)
		return EXIT_SYSTEM;
	rc = parse_args(&a, argc, argv, &image, &control, &stats, &have_if);
	if (rc >= 0) {
		free_ports(&a);
		return rc;
	}

	detail[0] = 0;
	r = pisa_image_read_file(image, &a.img, detail, sizeof(detail));
	if (r < 0) {
		fprintf(stderr, "pisa-model: %s: %s\n", image, detail[0] ? detail : pisa_strerror(r));
		free_ports(&a);
		return EXIT_INPUT;
	}
	snprintf(a.board, sizeof(a.board), "%s", a.img->board);
	a.m = pisa_model_new(a.img);
	if (!a.m) {
		fprintf(stderr, "pisa-model: no memory for the model\n");
		return EXIT_SYSTEM;
	}
	setup_model(&a, a.m);

	rc = EXIT_OK;
	if (a.commands && (rc = run_commands(&a, a.commands)) != EXIT_OK)
		goto out;
	for (k = 0; k < a.nports; k++) {
		r = port_open(&a.ports[k], err, sizeof(err));
		if (r < 0) {
			fprintf(stderr, "pisa-model: %s\n", err);
			rc = r == -1 ? EXIT_INPUT : EXIT_SYSTEM;
			goto out;
		}
	}
	if (control) {
		if (pisa_file_read(image, SIZE_MAX, &bytes, &blen) < 0)
			bytes = NULL;
		a.ctl = ctl_open(&a, control, bytes, bytes ? blen : 0, err, sizeof(err));
		free(bytes);
		if (!a.ctl) {
			fprintf(stderr, "pisa-model: --control: %s\n", err);
			rc = EXIT_SYSTEM;
			goto out;
		}
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	rc = run(&a, have_if);
	if (stats)
		print_stats(&a);
out:
	ctl_close(a.ctl);
	free_ports(&a);
	pisa_model_free(a.m);
	pisa_image_free(a.img);
	fflush(stdout);
	return rc;
}
