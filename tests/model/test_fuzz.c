/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_fuzz.c: robustness. Random packets through a parser with stacks,
 * varbit and lookahead; random instruction lists with garbage operands,
 * ids and widths; random row writes. Nothing may crash (the suite runs
 * under ASan and UBSan) and the outputs must stay within their bounds.
 */
#include "build.h"
#include "../../model/model_int.h"

static uint32_t seed = 99;

static uint32_t rnd(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 17;
	seed ^= seed << 5;
	return seed;
}

static struct pisa_operand ropnd(void)
{
	struct pisa_operand o;

	o.kind = (uint8_t)(rnd() % 6);
	o.off = (uint16_t)(rnd() % 4 ? rnd() % 2200 : rnd());
	o.width = (uint16_t)(rnd() % 8 ? 1 + rnd() % 64 : rnd() % 80);
	o.value = (uint64_t)rnd() << 32 | rnd();
	if (rnd() % 4 == 0)
		o.value %= 8;
	return o;
}

int main(void)
{
	struct pisa_image *img = tb_image(256);
	unsigned eth, st0, var, s0, s1, s2, a0, a1, t0, t1, i, k, bad = 0;
	struct pisa_field junk[3] = { { 2040, 16 }, { 3, 13 }, { 60000, 8 } };
	static uint8_t pkt[256 + MODEL_SLACK];
	static uint8_t phv[256 + MODEL_SLACK];
	struct pisa_model *m;
	struct tb_out *o;

	eth = tb_header(img, 96, 14);
	st0 = tb_header(img, 112, 4);
	tb_header(img, 116, 4);
	tb_header(img, 120, 4);
	img->stacks[0] = (struct pisa_stack){ (uint16_t)st0, 3 };
	img->nstacks = 1;
	var = tb_header(img, 124, 40);
	img->headers[var].fixed_bytes = 2;
	tb_header(img, 250, 20);	/* sticks out of the PHV: never copied */
	s0 = tb_state(img, 1, (struct pisa_insn[]){ INS(PISA_EXTRACT, eth, NO, NO, NO) });
	s1 = tb_state(img, 1, (struct pisa_insn[]){ INS(PISA_EXTRACT_STACK, 0, NO, NO, NO) });
	s2 = tb_state(img, 2, (struct pisa_insn[]){
		INS(PISA_SHL, 0, PHV(200 * 8, 16), PKT(8, 8), K(3, 8)),
		INS(PISA_EXTRACT_VAR, var, NO, PHV(200 * 8, 16), NO) });
	tb_key(img, s0, PHV(HB(img, eth, 96), 16));
	tb_row(img, s0, 0x0001, 0x000F, s1, 0);
	tb_row(img, s0, 0x0002, 0x000F, s2, 0);
	tb_row(img, s0, 0x0003, 0x000F, 5, 0);	/* a state that does not exist */
	tb_row(img, s0, 0x0004, 0x000F, PISA_PARSER_REJECT, 9);
	tb_row(img, s0, 0, 0, PISA_PARSER_ACCEPT, 0);
	tb_key(img, s1, PKT(0, 4));
	tb_key(img, s1, PKT(60, 64));
	tb_row(img, s1, 1, 0xF, s1, 0);
	tb_row(img, s1, 2, 0xF, s2, 0);
	tb_row(img, s1, 0, 0, PISA_PARSER_ACCEPT, 0);
	tb_row(img, s2, 0, 0, PISA_PARSER_ACCEPT, 0);
	img->parser_start = (uint16_t)s0;
	tb_flist(img, 3, junk);
	img->hash_units[0] = (struct pisa_hash_unit){ .algo = PISA_HASH_CRC16_CUSTOM, .crc_width = 7,
		.poly = 0x1021 };
	img->hash_units[1] = (struct pisa_hash_unit){ .algo = PISA_HASH_RANDOM };
	img->hash_units[2] = (struct pisa_hash_unit){ .algo = 99, .field_list = 40 };
	img->nhash_units = 3;
	img->counters[0] = (struct pisa_counter){ PISA_COUNTER_BOTH, 3, -1 };
	img->ncounters = 1;
	img->registers[0] = (struct pisa_register){ 64, 2 };
	img->registers[1] = (struct pisa_register){ 0, 2 };
	img->nregisters = 2;
	img->meters[0] = (struct pisa_meter){ PISA_METER_BYTES, 2, -1 };
	img->nmeters = 1;
	img->digests[0].field_list = 0;
	img->digests[1].field_list = 7;
	img->ndigests = 2;
	img->checksums[0] = (struct pisa_checksum){ .kind = PISA_CSUM_VERIFY, .with_payload = 1,
		.algo = PISA_HASH_CSUM16, .cond = K(1, 1), .field_list = 0, .dst = { 3000, 16 } };
	img->checksums[1] = (struct pisa_checksum){ .kind = PISA_CSUM_UPDATE, .with_payload = 1,
		.algo = PISA_HASH_CRC32, .cond = K(1, 1), .field_list = 0, .dst = { 2040, 16 } };
	img->nchecksums = 2;
	a0 = tb_action(img, 1, (struct pisa_insn[]){
		INS(PISA_SET, 0, FLD(PISA_SM_EGRESS_SPEC), K(1, 9), NO) }, 0);
	t0 = tb_table(img, 0, PISA_MEM_NONE, 0, 0, a0);
	tb_tact(img, t0, a0, 0, 0);
	a1 = tb_action(img, 0, NULL, 70);
	t1 = tb_table(img, 0, PISA_MEM_TCAM, 4, 70, 300);	/* default action not in the image */
	tb_tkey(img, t1, HB(img, eth, 0), 12, PISA_MATCH_TERNARY);
	tb_tkey(img, t1, HB(img, eth, 12), 8, PISA_MATCH_RANGE);
	tb_tkey(img, t1, 60000, 8, PISA_MATCH_RANGE);	/* outside the PHV */
	tb_tact(img, t1, a1, 0, 0);
	img->tables[t0].next_hit = img->tables[t0].next_miss = (uint16_t)t1;
	img->tables[t1].next_hit = (uint16_t)t0;	/* backwards: ends the pass */
	img->ingress_start = (uint16_t)t0;
	img->deparse[img->ndeparse++] = 77;	/* no such header */

	m = pisa_model_new(img);
	o = tb_outbuf();
	if (!m) {
		printf("FAIL fuzz: pisa_model_new\n");
		return 1;
	}

	/* random packets */
	for (k = 0; k < 3000; k++) {
		size_t len = rnd() % 120;

		for (i = 0; i < len; i++)
			pkt[i] = (uint8_t)(rnd() % 3 ? rnd() % 4 : rnd());
		tb_send(m, o, (uint16_t)(rnd() % 16), pkt, len, k);
		if (o->n != 1 || o->p[0].len > len + 14 + 12 + 40 || o->p[0].port != 1)
			bad++;
	}
	tb_check(bad == 0, "fuzz random packets: one bounded output each", "%u bad", bad);

	/* random row writes, then packets */
	for (k = 0; k < 2000; k++) {
		uint8_t row[64];
		size_t rb = pisa_row_bytes(&img->tables[t1]);

		for (i = 0; i < sizeof(row); i++)
			row[i] = (uint8_t)rnd();
		row[1] = 0;
		row[2] = (uint8_t)(rnd() % 8);
		pisa_model_ops.write_row(m, (uint16_t)(rnd() % 3), rnd() % 6, row,
					 rnd() % 4 ? rb : rnd() % 64);
		for (i = 0; i < 40; i++)
			pkt[i] = (uint8_t)rnd();
		tb_send(m, o, 2, pkt, 40, k);
	}
	tb_check(1, "fuzz random row writes", "");

	/* random instruction lists, as actions and as parser ops */
	for (k = 0; k < 4000; k++) {
		struct pisa_insn ins[8];
		struct exec_ctx c = { .phv = phv, .table = -1, .hit_row = MODEL_NO_ROW };
		size_t len = rnd() % 64;

		for (i = 0; i < 8; i++) {
			ins[i].op = (uint8_t)(rnd() % (PISA_OPCODE_COUNT + 3));
			ins[i].flags = (uint8_t)(rnd() % 4);
			ins[i].imm = (uint16_t)(rnd() % 3 ? rnd() % 8 : rnd());
			ins[i].dst = ropnd();
			ins[i].a = ropnd();
			ins[i].b = ropnd();
		}
		for (i = 0; i < len; i++)
			pkt[i] = (uint8_t)rnd();
		if (k & 1) {
			c.parser = 1;
			c.pkt = pkt;
			c.pkt_len = len;
			c.cursor = rnd() % (len + 1);
			c.vlen = NULL;
		}
		if (k & 2) {
			c.adata = pkt;
			c.db = (uint32_t)(rnd() % 9);
			c.hit_row = rnd() % 4;
		}
		model_exec(m, &c, ins, 8);
	}
	tb_check(1, "fuzz random instructions", "");

	pisa_model_free(m);
	tb_done();
	return tb_failed;
}
