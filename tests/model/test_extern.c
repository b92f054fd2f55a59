/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_extern.c: checksum verify and update on a real IPv4 header,
 * counters, registers, meters (colour sequences at given times), digests.
 */
#include "build.h"

static struct pisa_image *img;
static struct pisa_model *m;
static struct tb_out *o;

/* 4500 0073 0000 4000 4011 b861 c0a8 0001 c0a8 00c7: checksum 0xb861 */
static const uint8_t ipv4_hdr[20] = {
	0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
	0xb8, 0x61, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7,
};

/* our own Internet checksum, to check the model's */
static uint16_t ref_csum(const uint8_t *h, size_t n, size_t skip)
{
	uint32_t s = 0;
	size_t i;

	for (i = 0; i < n; i += 2)
		if (i != skip)
			s += (uint32_t)h[i] << 8 | h[i + 1];
	while (s >> 16)
		s = (s & 0xFFFF) + (s >> 16);
	return (uint16_t)~s;
}

static size_t mkpkt(uint8_t *p, int corrupt)
{
	memset(p, 0, 14);
	p[12] = 0x08;
	memcpy(p + 14, ipv4_hdr, 20);
	if (corrupt)
		p[14 + 11] ^= 0x01;
	memcpy(p + 34, "payload!", 8);
	return 42;
}

int main(void)
{
	unsigned eth, ip, rep, s0, s1, act, t, fl_ip, fl_dig, i;
	uint8_t pkt[64], want[64];
	uint64_t pk, by, v;
	struct pisa_meter_cfg mc;
	int rc;
	struct pisa_field ipf[3], dig[3];

	img = tb_image(256);
	rep = tb_header(img, 140, 4);
	eth = tb_header(img, 96, 14);
	ip = tb_header(img, 112, 20);
	s0 = tb_state(img, 1, (struct pisa_insn[]){ INS(PISA_EXTRACT, eth, NO, NO, NO) });
	s1 = tb_state(img, 1, (struct pisa_insn[]){ INS(PISA_EXTRACT, ip, NO, NO, NO) });
	tb_key(img, s0, PHV(HB(img, eth, 96), 16));
	tb_row(img, s0, 0x0800, 0xFFFF, s1, 0);
	tb_row(img, s0, 0, 0, PISA_PARSER_ACCEPT, 0);
	tb_row(img, s1, 0, 0, PISA_PARSER_ACCEPT, 0);
	img->parser_start = (uint16_t)s0;

	/* the IPv4 header but its checksum */
	ipf[0] = (struct pisa_field){ (uint16_t)HB(img, ip, 0), 64 };
	ipf[1] = (struct pisa_field){ (uint16_t)HB(img, ip, 64), 16 };
	ipf[2] = (struct pisa_field){ (uint16_t)HB(img, ip, 96), 64 };
	fl_ip = tb_flist(img, 3, ipf);
	img->checksums[0] = (struct pisa_checksum){ .kind = PISA_CSUM_VERIFY, .algo = PISA_HASH_CSUM16,
		.cond = PHV(PISA_VALID_BIT(ip), 1), .field_list = (uint16_t)fl_ip,
		.dst = { (uint16_t)HB(img, ip, 80), 16 } };
	img->checksums[1] = img->checksums[0];
	img->checksums[1].kind = PISA_CSUM_UPDATE;
	img->nchecksums = 2;
	/* digest: srcAddr, protocol, version (44 bits) */
	dig[0] = (struct pisa_field){ (uint16_t)HB(img, ip, 96), 32 };
	dig[1] = (struct pisa_field){ (uint16_t)HB(img, ip, 72), 8 };
	dig[2] = (struct pisa_field){ (uint16_t)HB(img, ip, 0), 4 };
	fl_dig = tb_flist(img, 3, dig);
	img->digests[0].field_list = (uint16_t)fl_dig;
	img->ndigests = 1;

	img->counters[0] = (struct pisa_counter){ PISA_COUNTER_PACKETS, 4, -1 };
	img->counters[1] = (struct pisa_counter){ PISA_COUNTER_BYTES, 1, -1 };
	img->ncounters = 2;
	img->registers[0] = (struct pisa_register){ 16, 8 };
	img->nregisters = 1;
	img->meters[0] = (struct pisa_meter){ PISA_METER_PACKETS, 2, -1 };
	img->meters[1] = (struct pisa_meter){ PISA_METER_BYTES, 1, -1 };
	img->nmeters = 2;

#define R(n) PHV(HB(img, rep, (n) * 8), 8)
#define SCR PHV(150 * 8, 16)
	act = tb_action(img, 15, (struct pisa_insn[]){
		INS(PISA_SET, 0, FLD(PISA_SM_EGRESS_SPEC), K(1, 9), NO),
		INS(PISA_SETVALID, rep, NO, NO, NO),
		INS(PISA_SET, 0, R(0), FLD(PISA_SM_CHECKSUM_ERROR), NO),
		INS(PISA_SUB, 0, PHV(HB(img, ip, 64), 8), PHV(HB(img, ip, 64), 8), K(1, 8)),
		INS(PISA_COUNT, 0, NO, K(2, 8), NO),
		INS(PISA_COUNT, 1, NO, K(7, 8), NO),
		INS(PISA_COUNT, 0, NO, K(4, 8), NO),	/* out of range: nothing */
		INS(PISA_REG_READ, 0, SCR, K(1, 8), NO),
		INS(PISA_ADD, 0, SCR, SCR, K(1, 16)),
		INS(PISA_REG_WRITE, 0, NO, K(1, 8), SCR),
		INS(PISA_REG_READ, 0, R(2), K(1, 8), NO),
		INS(PISA_REG_WRITE, 0, NO, K(2, 8), K(0x12345, 20)),
		INS(PISA_METER, 0, R(1), K(0, 8), NO),
		INS(PISA_METER, 1, R(3), K(0, 8), NO),
		INS(PISA_DIGEST, 0, NO, NO, NO) }, 0);
	t = tb_table(img, 0, PISA_MEM_NONE, 0, 0, act);
	tb_tact(img, t, act, 0, 0);
	img->ingress_start = (uint16_t)t;

	m = pisa_model_new(img);
	o = tb_outbuf();
	if (!m) {
		printf("FAIL extern: pisa_model_new\n");
		return 1;
	}
	if (getenv("TRACE"))
		pisa_model_set_trace(m, stderr);

	/* checksums */
	tb_check(ref_csum(ipv4_hdr, 20, 10) == 0xb861, "extern reference checksum", "0x%04x",
		 ref_csum(ipv4_hdr, 20, 10));
	mkpkt(pkt, 0);
	tb_send(m, o, 2, pkt, 42, 0);
	memcpy(want + 4, pkt, 42);
	want[4 + 14 + 8] = 0x3f;	/* ttl - 1 */
	{
		uint16_t c = ref_csum(want + 4 + 14, 20, 10);

		want[4 + 14 + 10] = (uint8_t)(c >> 8);
		want[4 + 14 + 11] = (uint8_t)c;
	}
	tb_check(o->n == 1 && o->p[0].len == 46 && o->p[0].data[0] == 0 &&
		 !memcmp(o->p[0].data + 4, want + 4, 42), "extern checksum verify ok, update rewrites",
		 "%u packets, err %d, csum %02x%02x", o->n, o->n ? o->p[0].data[0] : -1,
		 o->n ? o->p[0].data[4 + 24] : 0, o->n ? o->p[0].data[4 + 25] : 0);
	tb_check(o->n == 1 && o->p[0].data[4 + 24] == 0xb9 && o->p[0].data[4 + 25] == 0x61,
		 "extern checksum after ttl - 1 is 0xb961", "%02x%02x", o->p[0].data[28], o->p[0].data[29]);
	mkpkt(pkt, 1);
	tb_send(m, o, 2, pkt, 42, 0);
	tb_check(o->n == 1 && o->p[0].data[0] == 1 && o->p[0].data[28] == 0xb9 &&
		 o->p[0].data[29] == 0x61, "extern checksum verify fails on a bad checksum",
		 "err %d", o->n ? o->p[0].data[0] : -1);
	memset(pkt, 0, 20);	/* not IPv4: the units do not run */
	tb_send(m, o, 2, pkt, 20, 0);
	tb_check(o->n == 1 && o->p[0].data[0] == 0 && o->p[0].len == 24 &&
		 !memcmp(o->p[0].data + 4, pkt, 20), "extern checksum units honour their condition",
		 "err %d", o->n ? o->p[0].data[0] : -1);

	/* digests */
	mkpkt(pkt, 0);
	tb_send(m, o, 2, pkt, 42, 0);
	{
		static const uint8_t wd[6] = { 0xc0, 0xa8, 0x00, 0x01, 0x11, 0x40 };

		tb_check(o->ndig == 1 && o->dig_id[0] == 0 && o->dig_len[0] == 6 &&
			 !memcmp(o->dig[0], wd, 6), "extern digest bytes", "%u digests, %zu bytes",
			 o->ndig, o->ndig ? o->dig_len[0] : 0);
	}

	/* counters and registers after 4 packets (42 + 42 + 20 + 42 bytes) */
	rc = pisa_model_ops.counter_read(m, 0, 2, &pk, &by);
	tb_check(rc == 0 && pk == 4 && by == 0, "extern packet counter", "rc %d %llu %llu", rc,
		 (unsigned long long)pk, (unsigned long long)by);
	rc = pisa_model_ops.counter_read(m, 1, 0, &pk, &by);
	tb_check(rc == 0 && pk == 0 && by == 146, "extern byte counter, size-1 index ignored",
		 "rc %d %llu %llu", rc, (unsigned long long)pk, (unsigned long long)by);
	rc = pisa_model_ops.counter_read(m, 0, 3, &pk, &by);
	tb_check(rc == 0 && pk == 0, "extern counter index out of range counts nothing", "%llu",
		 (unsigned long long)pk);
	rc = pisa_model_ops.counter_read(m, 0, 4, &pk, &by);
	tb_check(rc == -PISA_E_RANGE, "extern counter_read index checked", "rc %d", rc);
	rc = pisa_model_ops.counter_write(m, 0, 2, 100, 5);
	rc |= pisa_model_ops.counter_read(m, 0, 2, &pk, &by);
	tb_check(rc == 0 && pk == 100 && by == 5, "extern counter_write", "rc %d", rc);
	tb_check(o->p[0].data[2] == 4, "extern register read-modify-write", "%d", o->p[0].data[2]);
	rc = pisa_model_ops.register_read(m, 0, 1, &v);
	tb_check(rc == 0 && v == 4, "extern register_read", "rc %d v %llu", rc, (unsigned long long)v);
	rc = pisa_model_ops.register_read(m, 0, 2, &v);
	tb_check(rc == 0 && v == 0x2345, "extern register write truncates to the width", "v %llx",
		 (unsigned long long)v);
	rc = pisa_model_ops.register_write(m, 0, 1, 0x10000);
	tb_check(rc == -PISA_E_RANGE, "extern register_write width checked", "rc %d", rc);
	rc = pisa_model_ops.register_write(m, 0, 8, 1);
	tb_check(rc == -PISA_E_RANGE, "extern register_write index checked", "rc %d", rc);
	rc = pisa_model_ops.register_write(m, 0, 1, 0x100);
	tb_send(m, o, 2, pkt, 42, 0);
	tb_check(rc == 0 && o->p[0].data[2] == 0x01, "extern register_write seen by packets",
		 "%d", o->p[0].data[2]);
	rc = pisa_model_ops.register_write(m, 1, 0, 0);
	tb_check(rc == -PISA_E_RANGE, "extern register id checked", "rc %d", rc);

	/* meters: unconfigured is green */
	tb_check(o->p[0].data[1] == PISA_GREEN && o->p[0].data[3] == PISA_GREEN,
		 "extern unconfigured meter is green", "%d %d", o->p[0].data[1], o->p[0].data[3]);
	/* 1 packet / ms committed, 2 / ms peak, bursts 1 and 2 */
	mc = (struct pisa_meter_cfg){ 1, 65, 131, 1, 2 };
	rc = pisa_model_ops.meter_write(m, 0, 0, &mc);
	mc = (struct pisa_meter_cfg){ 1, 0, 0, 100, 100 };
	rc |= pisa_model_ops.meter_write(m, 1, 0, &mc);
	tb_check(rc == 0, "extern meter_write", "rc %d", rc);
	{
		static const uint64_t tm[6] = { 1000, 1000, 1000, 1500, 2000, 4000 };
		static const int want_c[6] = { PISA_GREEN, PISA_YELLOW, PISA_RED, PISA_RED,
					       PISA_YELLOW, PISA_GREEN };
		static const int want_b[6] = { PISA_GREEN, PISA_GREEN, PISA_GREEN, PISA_RED,
					       PISA_RED, PISA_RED };
		char got[32] = "", gotb[32] = "";

		for (i = 0; i < 6; i++) {
			/* 30-byte packets: not IPv4, the byte meter sees 30 bytes each */
			memset(pkt, 0, 30);
			tb_send(m, o, 2, pkt, 30, tm[i]);
			got[i] = o->n == 1 ? (char)('0' + o->p[0].data[1]) : '?';
			gotb[i] = o->n == 1 ? (char)('0' + o->p[0].data[3]) : '?';
			if (o->n != 1 || o->p[0].data[1] != want_c[i])
				rc = 1;
			if (o->n != 1 || o->p[0].data[3] != want_b[i])
				rc = 2;
		}
		tb_check(rc != 1 && strcmp(got, "012210") == 0, "extern trTCM packet meter sequence",
			 "colours %s, want 012210", got);
		tb_check(strcmp(gotb, "000222") == 0, "extern trTCM byte meter sequence",
			 "colours %s, want 000222", gotb);
	}
	rc = pisa_model_ops.meter_write(m, 0, 2, &mc);
	tb_check(rc == -PISA_E_RANGE, "extern meter index checked", "rc %d", rc);
	mc.configured = 0;
	pisa_model_ops.meter_write(m, 1, 0, &mc);
	memset(pkt, 0, 30);
	tb_send(m, o, 2, pkt, 30, 5000);
	tb_check(o->p[0].data[3] == PISA_GREEN, "extern meter unconfigured again is green", "%d",
		 o->p[0].data[3]);
	{
		struct pisa_model_stats st;

		pisa_model_get_stats(m, &st);
		tb_check(st.digests == 12, "extern digests counted",
			 "%llu", (unsigned long long)st.digests);
	}

	pisa_model_free(m);
	tb_done();
	return tb_failed;
}
