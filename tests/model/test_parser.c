/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_parser.c: the parser engine end to end: extract, select, lookahead,
 * stacks, varbit, advance, every parser error, runts; outputs byte for byte.
 */
#include "build.h"

static struct pisa_model *m;
static struct tb_out *o;

/* Sends pkt on port 0; expects one packet on port 1 = err (4 bytes BE) + want. */
static void expect_out(const char *name, const char *pkt_hex, uint32_t err, const char *want_hex)
{
	uint8_t pkt[256], want[260];
	size_t pl = 0, wl = 4;
	char got[1024];
	const char *p;
	unsigned v;

	for (p = pkt_hex; *p && sscanf(p, "%2x", &v) == 1; p += 2)
		pkt[pl++] = (uint8_t)v;
	want[0] = (uint8_t)(err >> 24);
	want[1] = (uint8_t)(err >> 16);
	want[2] = (uint8_t)(err >> 8);
	want[3] = (uint8_t)err;
	for (p = want_hex; *p && sscanf(p, "%2x", &v) == 1; p += 2)
		want[wl++] = (uint8_t)v;
	tb_send(m, o, 0, pkt, pl, 1);
	if (o->n != 1) {
		tb_check(0, name, "%u packets out", o->n);
		return;
	}
	tb_hex(o->p[0].data, o->p[0].len, got, sizeof(got));
	tb_check(tb_eq(&o->p[0], 1, want, wl), name, "got port %u %s", o->p[0].port, got);
}

int main(void)
{
	struct pisa_image *img = tb_image(256);
	unsigned herr, eth, h2, st0, var, s0, s1, s2, s3, s4, s5, s6, a0, t0;
	unsigned scratch = 140 * 8;
	struct pisa_model_stats st;

	herr = tb_header(img, 80, 4);
	eth = tb_header(img, 96, 14);
	h2 = tb_header(img, 112, 4);
	st0 = tb_header(img, 120, 2);
	tb_header(img, 122, 2);
	img->stacks[0] = (struct pisa_stack){ (uint16_t)st0, 2 };
	img->nstacks = 1;
	var = tb_header(img, 128, 5);
	img->headers[var].fixed_bytes = 1;

	s0 = tb_state(img, 1, (struct pisa_insn[]){ INS(PISA_EXTRACT, eth, NO, NO, NO) });
	s1 = tb_state(img, 1, (struct pisa_insn[]){ INS(PISA_EXTRACT, h2, NO, NO, NO) });
	s2 = tb_state(img, 0, NULL);
	s3 = tb_state(img, 1, (struct pisa_insn[]){ INS(PISA_EXTRACT_STACK, 0, NO, NO, NO) });
	s4 = tb_state(img, 2, (struct pisa_insn[]){
		INS(PISA_SHL, 0, PHV(scratch, 16), PKT(0, 8), K(3, 8)),
		INS(PISA_EXTRACT_VAR, var, NO, PHV(scratch, 16), NO) });
	s5 = tb_state(img, 0, NULL);
	s6 = tb_state(img, 2, (struct pisa_insn[]){
		INS(PISA_ADVANCE, 0, NO, K(16, 16), NO),
		INS(PISA_EXTRACT, h2, NO, NO, NO) });
	img->parser_start = (uint16_t)s0;
	tb_key(img, s0, PHV(HB(img, eth, 96), 16));
	tb_row(img, s0, 0x0800, 0xFFFF, s1, 0);
	tb_row(img, s0, 0x8100, 0xFFFF, s2, 0);
	tb_row(img, s0, 0x9000, 0xFFFF, s3, 0);
	tb_row(img, s0, 0x9100, 0xFFFF, s4, 0);
	tb_row(img, s0, 0x9200, 0xFFFF, s5, 0);
	tb_row(img, s0, 0x9300, 0xFFFF, s6, 0);
	tb_row(img, s0, 0x9400, 0xFFFF, PISA_PARSER_REJECT, PISA_ERROR_USER);
	tb_row(img, s1, 0, 0, PISA_PARSER_ACCEPT, 0);
	tb_key(img, s2, PKT(0, 8));
	tb_row(img, s2, 0x01, 0xFF, s1, 0);
	tb_row(img, s2, 0, 0, PISA_PARSER_ACCEPT, 0);
	tb_key(img, s3, PKT(0, 8));
	tb_row(img, s3, 0, 0xFF, PISA_PARSER_ACCEPT, 0);
	tb_row(img, s3, 0, 0, s3, 0);
	tb_row(img, s4, 0, 0, PISA_PARSER_ACCEPT, 0);
	tb_row(img, s5, 0, 0, s5, 0);
	tb_row(img, s6, 0, 0, PISA_PARSER_ACCEPT, 0);

	/* ingress: show parser_error in front, mark h2, send to port 1 */
	a0 = tb_action(img, 4, (struct pisa_insn[]){
		INS(PISA_SET, 0, PHV(HB(img, herr, 0), 32), FLD(PISA_SM_PARSER_ERROR), NO),
		INS(PISA_SETVALID, herr, NO, NO, NO),
		INS(PISA_SET, 0, PHV(HB(img, h2, 0), 8), K(0xEE, 8), NO),
		INS(PISA_SET, 0, FLD(PISA_SM_EGRESS_SPEC), K(1, 9), NO) }, 0);
	t0 = tb_table(img, 0, PISA_MEM_NONE, 0, 0, a0);
	tb_tact(img, t0, a0, PISA_NEXT_END, 0);
	img->ingress_start = (uint16_t)t0;

	m = pisa_model_new(img);
	o = tb_outbuf();
	if (getenv("TRACE"))
		pisa_model_set_trace(m, stderr);
	if (!m) {
		printf("FAIL parser: pisa_model_new\n");
		return 1;
	}

	expect_out("parser extract and select", "0102030405060708090a0b0c0800" "11223344" "556677",
		   0, "0102030405060708090a0b0c0800" "ee223344" "556677");
	expect_out("parser lookahead taken", "0102030405060708090a0b0c8100" "01223344" "55",
		   0, "0102030405060708090a0b0c8100" "ee223344" "55");
	expect_out("parser lookahead not taken", "0102030405060708090a0b0c8100" "02223344",
		   0, "0102030405060708090a0b0c8100" "02223344");
	expect_out("parser lookahead past the end reads zero", "0102030405060708090a0b0c8100",
		   0, "0102030405060708090a0b0c8100");
	expect_out("parser stack loop", "0102030405060708090a0b0c9000" "1111" "2222" "0099",
		   0, "0102030405060708090a0b0c9000" "1111" "2222" "0099");
	expect_out("parser stack StackOutOfBounds", "0102030405060708090a0b0c9000" "1111" "2222" "3333" "44",
		   PISA_ERROR_STACK_OUT_OF_BOUNDS,
		   "0102030405060708090a0b0c9000" "1111" "2222" "3333" "44");
	expect_out("parser varbit", "0102030405060708090a0b0c9100" "02aabb" "ccdd",
		   0, "0102030405060708090a0b0c9100" "02aabb" "ccdd");
	expect_out("parser varbit empty", "0102030405060708090a0b0c9100" "00" "ccdd",
		   0, "0102030405060708090a0b0c9100" "00" "ccdd");
	expect_out("parser varbit HeaderTooShort", "0102030405060708090a0b0c9100" "05aabbccddeeff",
		   PISA_ERROR_HEADER_TOO_SHORT, "0102030405060708090a0b0c9100" "05aabbccddeeff");
	expect_out("parser varbit PacketTooShort", "0102030405060708090a0b0c9100" "04aabb",
		   PISA_ERROR_PACKET_TOO_SHORT, "0102030405060708090a0b0c9100" "04aabb");
	expect_out("parser ParserTimeout", "0102030405060708090a0b0c9200" "ff",
		   PISA_ERROR_PARSER_TIMEOUT, "0102030405060708090a0b0c9200" "ff");
	expect_out("parser advance drops the skipped bytes", "0102030405060708090a0b0c9300" "abcd" "11223344" "55",
		   0, "0102030405060708090a0b0c9300" "ee223344" "55");
	expect_out("parser reject with a program error", "0102030405060708090a0b0c9400" "11",
		   PISA_ERROR_USER, "0102030405060708090a0b0c9400" "11");
	expect_out("parser NoMatch", "0102030405060708090a0b0caaaa" "11",
		   PISA_ERROR_NO_MATCH, "0102030405060708090a0b0caaaa" "11");
	expect_out("parser PacketTooShort on a runt", "", PISA_ERROR_PACKET_TOO_SHORT, "");
	expect_out("parser PacketTooShort keeps the bytes", "0102030405",
		   PISA_ERROR_PACKET_TOO_SHORT, "0102030405");
	expect_out("parser PacketTooShort in the second header", "0102030405060708090a0b0c0800" "1122",
		   PISA_ERROR_PACKET_TOO_SHORT, "0102030405060708090a0b0c0800" "1122");
	pisa_model_get_stats(m, &st);
	tb_check(st.parser_errors == 9 && st.rx_packets == 17 && st.tx_packets == 17,
		 "parser stats", "errors %llu rx %llu tx %llu", (unsigned long long)st.parser_errors,
		 (unsigned long long)st.rx_packets, (unsigned long long)st.tx_packets);

	pisa_model_free(m);
	tb_done();
	return tb_failed;
}
