/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_tm.c: the traffic manager: unicast, drop (ingress and egress),
 * multicast with rids, I2E and E2E clones (port, group, truncation, kept
 * field lists), resubmit, recirculate and the pass limit, truncate, bad
 * ports, oversize packets.
 *
 * One program does it all, steered by bytes of header h0:
 *   h0[0] egress_spec   h0[1] mcast_grp    h0[2] drop in ingress
 *   h0[3] I2E clone     h0[4] session      h0[5] resubmit once
 *   h0[6] 1 recirculate once, 2 always     h0[7] drop in egress
 *   h0[8] truncate to   h0[9] E2E clone: 1 once, 2 always
 * and egress reports into h0: [10] ingress mark, [11] meta.y, [12]
 * instance_type, [13] egress_rid, [14] egress_port, [15] meta.x (kept).
 */
#include "build.h"

static struct pisa_image *img;
static struct pisa_model *m;
static struct tb_out *o;
static uint8_t pkt[PISA_MODEL_MAX_PACKET + 2];

#define MX (220 * 8)
#define MY (221 * 8)
#define S1 (222 * 8)
#define S2 (223 * 8)

static void reset_pkt(size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		pkt[i] = (uint8_t)(i < 16 ? 0 : 0xA0 + i);
}

static int outp(unsigned i, unsigned port, unsigned itype, unsigned rid)
{
	const struct tb_pkt *p = &o->p[i];

	return i < o->n && p->port == port && p->len >= 16 && p->data[12] == itype &&
	       p->data[13] == rid && p->data[14] == (port & 0xFF);
}

static void show(const char *name)
{
	unsigned i;
	char hex[80];

	for (i = 0; i < o->n; i++) {
		tb_hex(o->p[i].data, o->p[i].len < 16 ? o->p[i].len : 16, hex, sizeof(hex));
		printf("# %s: out %u port %u len %zu %s\n", name, i, o->p[i].port, o->p[i].len, hex);
	}
}

static void check(int ok, const char *name)
{
	if (!ok)
		show(name);
	tb_check(ok, name, "%u packets out", o->n);
}

int main(void)
{
	unsigned h0, s0, ai, ae, ti, te, fl;
	struct pisa_field kept = { MX, 8 };
	struct pisa_model_stats st;
	struct pisa_mc_copy grp3[3] = { { 10, 4 }, { 11, 5 }, { 12, 4 } };
	struct pisa_clone_cfg cs;
	int rc;

	img = tb_image(256);
	h0 = tb_header(img, 96, 16);
	s0 = tb_state(img, 1, (struct pisa_insn[]){ INS(PISA_EXTRACT, h0, NO, NO, NO) });
	tb_row(img, s0, 0, 0, PISA_PARSER_ACCEPT, 0);
	img->parser_start = (uint16_t)s0;
	fl = tb_flist(img, 1, &kept);
#define B(n) PHV(HB(img, h0, (n) * 8), 8)
#define ITYPE FLD(PISA_SM_INSTANCE_TYPE)
	ai = tb_action(img, 17, (struct pisa_insn[]){
		INS(PISA_SET, 0, FLD(PISA_SM_EGRESS_SPEC), B(0), NO),
		INS(PISA_JZ, 1, NO, B(1), NO),
		INS(PISA_SET, 0, FLD(PISA_SM_MCAST_GRP), B(1), NO),
		INS(PISA_JZ, 1, NO, B(2), NO),
		INS(PISA_DROP, 0, NO, NO, NO),
		INS(PISA_OR, 0, B(10), ITYPE, K(0xF0, 8)),
		INS(PISA_JNZ, 2, NO, ITYPE, NO),
		INS(PISA_SET, 0, PHV(MX, 8), K(0x5A, 8), NO),
		INS(PISA_SET, 0, PHV(MY, 8), K(0x77, 8), NO),
		INS(PISA_JZ, 1, NO, B(3), NO),
		INS(PISA_CLONE, PISA_CLONE_I2E, NO, B(4), K(fl + 1, 8)),
		INS(PISA_JNZ, 2, NO, ITYPE, NO),
		INS(PISA_JZ, 1, NO, B(5), NO),
		INS(PISA_RESUBMIT, 0, NO, K(fl + 1, 8), NO),
		INS(PISA_NOP, 0, NO, NO, NO),
		INS(PISA_NOP, 0, NO, NO, NO),
		INS(PISA_NOP, 0, NO, NO, NO) }, 0);
	ae = tb_action(img, 25, (struct pisa_insn[]){
		INS(PISA_SET, 0, B(12), ITYPE, NO),
		INS(PISA_SET, 0, B(13), FLD(PISA_SM_EGRESS_RID), NO),
		INS(PISA_SET, 0, B(14), FLD(PISA_SM_EGRESS_PORT), NO),
		INS(PISA_SET, 0, B(15), PHV(MX, 8), NO),
		INS(PISA_SET, 0, B(11), PHV(MY, 8), NO),
		INS(PISA_JZ, 1, NO, B(8), NO),
		INS(PISA_TRUNCATE, 0, NO, B(8), NO),
		/* recirculate: always (2) or once (1) */
		INS(PISA_EQ, 0, PHV(S1, 1), B(6), K(2, 8)),
		INS(PISA_JZ, 1, NO, PHV(S1, 1), NO),
		INS(PISA_RECIRCULATE, 0, NO, K(fl + 1, 8), NO),
		INS(PISA_EQ, 0, PHV(S1, 1), B(6), K(1, 8)),
		INS(PISA_NE, 0, PHV(S2, 1), ITYPE, K(PISA_INSTANCE_RECIRC, 32)),
		INS(PISA_AND, 0, PHV(S1, 1), PHV(S1, 1), PHV(S2, 1)),
		INS(PISA_JZ, 1, NO, PHV(S1, 1), NO),
		INS(PISA_RECIRCULATE, 0, NO, K(fl + 1, 8), NO),
		/* E2E clone once */
		INS(PISA_EQ, 0, PHV(S1, 1), B(9), K(1, 8)),
		INS(PISA_NE, 0, PHV(S2, 1), ITYPE, K(PISA_INSTANCE_EGRESS_CLONE, 32)),
		INS(PISA_AND, 0, PHV(S1, 1), PHV(S1, 1), PHV(S2, 1)),
		INS(PISA_EQ, 0, PHV(S2, 1), B(9), K(2, 8)),
		INS(PISA_OR, 0, PHV(S1, 1), PHV(S1, 1), PHV(S2, 1)),
		INS(PISA_JZ, 1, NO, PHV(S1, 1), NO),
		INS(PISA_CLONE, PISA_CLONE_E2E, NO, B(4), K(fl + 1, 8)),
		INS(PISA_JZ, 1, NO, B(7), NO),
		INS(PISA_DROP, 0, NO, NO, NO),
		INS(PISA_NOP, 0, NO, NO, NO) }, 0);
	ti = tb_table(img, 0, PISA_MEM_NONE, 0, 0, ai);
	tb_tact(img, ti, ai, 0, 0);
	te = tb_table(img, 1, PISA_MEM_NONE, 0, 0, ae);
	tb_tact(img, te, ae, 0, 0);
	img->ingress_start = (uint16_t)ti;
	img->egress_start = (uint16_t)te;

	m = pisa_model_new(img);
	o = tb_outbuf();
	if (!m) {
		printf("FAIL tm: pisa_model_new\n");
		return 1;
	}
	if (getenv("TRACE"))
		pisa_model_set_trace(m, stderr);

	rc = pisa_model_ops.mcast_write(m, 3, 3, grp3);
	cs = (struct pisa_clone_cfg){ .enabled = 1, .port = 7 };
	rc |= pisa_model_ops.clone_write(m, 2, &cs);
	cs = (struct pisa_clone_cfg){ .enabled = 1, .port = 8, .truncate = 10 };
	rc |= pisa_model_ops.clone_write(m, 4, &cs);
	cs = (struct pisa_clone_cfg){ .enabled = 1, .mcast_grp = 3 };
	rc |= pisa_model_ops.clone_write(m, 5, &cs);
	tb_check(rc == 0, "tm setup writes", "rc %d", rc);

	reset_pkt(30);
	pkt[0] = 9;
	tb_send(m, o, 1, pkt, 30, 5);
	check(o->n == 1 && outp(0, 9, 0, 0) && o->p[0].len == 30 && o->p[0].data[10] == 0xF0 &&
	      o->p[0].data[11] == 0x77 && o->p[0].data[29] == 0xA0 + 29, "tm unicast");
	pkt[0] = 255;
	tb_send(m, o, 1, pkt, 30, 5);
	check(o->n == 1 && o->p[0].port == 255, "tm cpu port is a port");

	reset_pkt(30);
	pkt[0] = 9; pkt[2] = 1;
	tb_send(m, o, 1, pkt, 30, 5);
	pisa_model_get_stats(m, &st);
	check(o->n == 0 && st.dropped == 1, "tm drop in ingress");
	reset_pkt(30);
	pkt[0] = 9; pkt[7] = 1;
	tb_send(m, o, 1, pkt, 30, 5);
	pisa_model_get_stats(m, &st);
	check(o->n == 0 && st.dropped == 2, "tm drop in egress");

	reset_pkt(30);
	pkt[1] = 3;
	tb_send(m, o, 1, pkt, 30, 5);
	check(o->n == 3 && outp(0, 4, 5, 10) && outp(1, 5, 5, 11) && outp(2, 4, 5, 12) &&
	      o->p[2].data[11] == 0x77, "tm multicast copies with rids, in group order");
	pkt[1] = 4;
	tb_send(m, o, 1, pkt, 30, 5);
	check(o->n == 0, "tm multicast to an empty group");
	rc = pisa_model_ops.mcast_write(m, 3, 0, NULL);
	pkt[1] = 3;
	tb_send(m, o, 1, pkt, 30, 5);
	check(rc == 0 && o->n == 0, "tm multicast group deleted");
	rc = pisa_model_ops.mcast_write(m, 3, 3, grp3);

	/* I2E: the copy is the packet as it arrived, parsed again */
	reset_pkt(30);
	pkt[0] = 1; pkt[3] = 1; pkt[4] = 2;
	tb_send(m, o, 1, pkt, 30, 5);
	check(o->n == 2 && outp(0, 7, 1, 0) && o->p[0].data[10] == 0 && o->p[0].data[15] == 0x5A &&
	      o->p[0].data[11] == 0 && o->p[0].data[3] == 1 && outp(1, 1, 0, 0) &&
	      o->p[1].data[10] == 0xF0 && o->p[1].data[11] == 0x77,
	      "tm I2E clone: original bytes, kept field list, metadata zero");
	pkt[4] = 4;
	tb_send(m, o, 1, pkt, 30, 5);
	check(o->n == 2 && o->p[0].port == 8 && o->p[0].len == 10 && o->p[1].len == 30,
	      "tm I2E clone session truncation");
	pkt[4] = 5;
	tb_send(m, o, 1, pkt, 30, 5);
	check(o->n == 4 && outp(0, 4, 1, 10) && outp(1, 5, 1, 11) && outp(2, 4, 1, 12) &&
	      outp(3, 1, 0, 0), "tm I2E clone to a multicast group");
	pkt[4] = 9;
	tb_send(m, o, 1, pkt, 30, 5);
	check(o->n == 1 && outp(0, 1, 0, 0), "tm I2E clone to an unconfigured session");

	/* resubmit */
	reset_pkt(30);
	pkt[0] = 2; pkt[5] = 1;
	tb_send(m, o, 1, pkt, 30, 5);
	check(o->n == 1 && outp(0, 2, 6, 0) && o->p[0].data[10] == 0xF6 &&
	      o->p[0].data[15] == 0x5A && o->p[0].data[11] == 0, "tm resubmit keeps its field list");

	/* E2E: the copy has the headers as egress left them */
	reset_pkt(30);
	pkt[0] = 1; pkt[9] = 1; pkt[4] = 2;
	tb_send(m, o, 1, pkt, 30, 5);
	check(o->n == 2 && outp(0, 1, 0, 0) && outp(1, 7, 2, 0) && o->p[1].data[10] == 0xF0 &&
	      o->p[1].data[11] == 0 && o->p[1].data[15] == 0x5A, "tm E2E clone");

	/* recirculate */
	reset_pkt(30);
	pkt[0] = 6; pkt[6] = 1;
	tb_send(m, o, 1, pkt, 30, 5);
	check(o->n == 1 && outp(0, 6, 4, 0) && o->p[0].data[15] == 0x5A && o->p[0].data[11] == 0 &&
	      o->p[0].data[10] == 0xF4 && o->p[0].len == 30, "tm recirculate");
	pkt[6] = 2;
	tb_send(m, o, 1, pkt, 30, 5);
	pisa_model_get_stats(m, &st);
	check(o->n == 0 && st.pass_limit == 1, "tm recirculate forever hits the pass limit");
	/* E2E clones that keep cloning stop too */
	reset_pkt(30);
	pkt[0] = 1; pkt[9] = 2; pkt[4] = 2;
	tb_send(m, o, 1, pkt, 30, 5);
	pisa_model_get_stats(m, &st);
	check(o->n == 1 + PISA_MODEL_MAX_PASSES && st.pass_limit == 2 &&
	      outp(PISA_MODEL_MAX_PASSES, 7, 2, 0), "tm E2E clone chain hits the pass limit");

	/* truncate */
	reset_pkt(30);
	pkt[0] = 3; pkt[8] = 20;
	tb_send(m, o, 1, pkt, 30, 5);
	check(o->n == 1 && o->p[0].len == 20 && !memcmp(o->p[0].data + 16, pkt + 16, 4),
	      "tm truncate");
	pkt[8] = 200;
	tb_send(m, o, 1, pkt, 30, 5);
	check(o->n == 1 && o->p[0].len == 30, "tm truncate longer than the packet");

	/* robustness */
	reset_pkt(30);
	pkt[0] = 3;
	rc = tb_send(m, o, 511, pkt, 30, 5);
	check(rc == -PISA_E_RANGE && o->n == 0, "tm port 511 refused");
	rc = tb_send(m, o, 600, pkt, 30, 5);
	pisa_model_get_stats(m, &st);
	check(rc == -PISA_E_RANGE && o->n == 0 && st.bad_port == 2, "tm port 600 refused");
	reset_pkt(PISA_MODEL_MAX_PACKET + 1);
	pkt[0] = 3;
	rc = tb_send(m, o, 1, pkt, PISA_MODEL_MAX_PACKET + 1, 5);
	pisa_model_get_stats(m, &st);
	check(rc == 0 && o->n == 0 && st.oversize == 1, "tm oversize dropped and counted");
	rc = tb_send(m, o, 1, pkt, PISA_MODEL_MAX_PACKET, 5);
	check(rc == 0 && o->n == 1 && o->p[0].len == PISA_MODEL_MAX_PACKET &&
	      !memcmp(o->p[0].data + 16, pkt + 16, PISA_MODEL_MAX_PACKET - 16),
	      "tm largest packet passes");
	rc = tb_send(m, o, 1, pkt, 3, 5);
	check(rc == 0 && o->n == 1 && o->p[0].port == 0 && o->p[0].len == 3, "tm runt goes on to port 0");

	/* control-plane checks */
	rc = pisa_model_ops.mcast_write(m, 16, 3, grp3);
	tb_check(rc == -PISA_E_RANGE, "tm mcast group id checked", "rc %d", rc);
	grp3[1].port = 511;
	rc = pisa_model_ops.mcast_write(m, 2, 3, grp3);
	tb_check(rc == -PISA_E_RANGE, "tm mcast port checked", "rc %d", rc);
	grp3[1].port = 5;
	{
		struct pisa_mc_copy many[65];

		memset(many, 0, sizeof(many));
		rc = pisa_model_ops.mcast_write(m, 2, 65, many);
		tb_check(rc == -PISA_E_FULL, "tm mcast nodes are limited", "rc %d", rc);
		rc = pisa_model_ops.mcast_write(m, 2, 61, many);
		tb_check(rc == 0, "tm mcast nodes up to the limit", "rc %d", rc);
	}
	cs = (struct pisa_clone_cfg){ .enabled = 1, .port = 3 };
	rc = pisa_model_ops.clone_write(m, 16, &cs);
	tb_check(rc == -PISA_E_RANGE, "tm clone session id checked", "rc %d", rc);

	pisa_model_free(m);
	tb_done();
	return tb_failed;
}
