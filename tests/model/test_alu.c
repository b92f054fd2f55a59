/* SPDX-License-Identifier: Apache-2.0 */
/* test_alu.c: every ALU opcode of the instruction engine, on a bare PHV. */
#include "build.h"
#include "../../model/model_int.h"

static struct pisa_model *m;
static uint8_t phv[256 + MODEL_SLACK];

#define A 1024		/* scratch area: PHV bit 1024 = byte 128 */
#define RUN(...) run((const struct pisa_insn[]){ __VA_ARGS__ }, \
	sizeof((const struct pisa_insn[]){ __VA_ARGS__ }) / sizeof(struct pisa_insn))

static int last_rc;

static void run(const struct pisa_insn *in, unsigned n)
{
	struct exec_ctx c = { .phv = phv, .table = -1, .hit_row = MODEL_NO_ROW };

	last_rc = model_exec(m, &c, in, n);
}

static uint64_t get(unsigned off, unsigned w)
{
	return pisa_bits_get(phv, off, w);
}

static void expect(const char *name, uint64_t got, uint64_t want)
{
	tb_check(got == want, name, "got 0x%llx, want 0x%llx", (unsigned long long)got,
		 (unsigned long long)want);
}

static uint32_t xs(uint32_t x)
{
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return x;
}

int main(void)
{
	struct pisa_image *img = tb_image(256);
	struct pisa_field f9[2] = { { A, 64 }, { A + 64, 8 } };
	unsigned h0, h1, fl;

	h0 = tb_header(img, 200, 4);
	h1 = tb_header(img, 204, 4);
	fl = tb_flist(img, 2, f9);
	img->hash_units[0] = (struct pisa_hash_unit){ .algo = PISA_HASH_CRC32, .field_list = (uint16_t)fl };
	img->hash_units[1] = (struct pisa_hash_unit){ .algo = PISA_HASH_CRC16, .field_list = (uint16_t)fl };
	img->hash_units[2] = (struct pisa_hash_unit){ .algo = PISA_HASH_IDENTITY, .field_list = (uint16_t)fl };
	img->nhash_units = 3;
	m = pisa_model_new(img);
	if (!m) {
		printf("FAIL alu: pisa_model_new\n");
		return 1;
	}

	/* SET and slices at odd offsets */
	RUN(INS(PISA_SET, 0, PHV(A + 3, 5), K(0x1F, 5), NO),
	    INS(PISA_SET, 0, PHV(A + 8, 12), K(0xABC, 12), NO),
	    INS(PISA_SET, 0, PHV(A + 20, 4), PHV(A + 8, 4), NO));
	expect("alu set slice", get(A, 24), 0x1FABCA);
	RUN(INS(PISA_SET, 0, PHV(A, 8), K(0x1234, 16), NO));
	expect("alu set truncates to dst width", get(A, 8), 0x34);

	/* carry chains: 32-bit add as two 16-bit halves, 128-bit add as two 64-bit */
	memset(phv, 0, sizeof(phv));
	RUN(INS(PISA_ADD, 0, PHV(A + 16, 16), K(0xFFFF, 16), K(0x0002, 16)),
	    INS(PISA_ADDC, 0, PHV(A, 16), K(0x1234, 16), K(0x0000, 16)));
	expect("alu add carry chain 16", get(A, 32), 0x12350001);
	RUN(INS(PISA_ADD, 0, PHV(A + 64, 64), K(~0ull, 64), K(1, 64)),
	    INS(PISA_ADDC, 0, PHV(A, 64), K(5, 64), K(6, 64)));
	expect("alu add carry chain 64 low", get(A + 64, 64), 0);
	expect("alu add carry chain 64 high", get(A, 64), 12);
	RUN(INS(PISA_SUB, 0, PHV(A + 16, 16), K(0x0001, 16), K(0x0002, 16)),
	    INS(PISA_SUBC, 0, PHV(A, 16), K(0x1234, 16), K(0x0000, 16)));
	expect("alu sub borrow chain", get(A, 32), 0x1233FFFF);
	RUN(INS(PISA_SUB, 0, PHV(A + 16, 16), K(5, 16), K(2, 16)),
	    INS(PISA_SUBC, 0, PHV(A, 16), K(7, 16), K(3, 16)));
	expect("alu sub no borrow", get(A, 32), 0x00040003);
	/* the carry starts at 0 in every list */
	RUN(INS(PISA_ADD, 0, PHV(A, 8), K(0xFF, 8), K(1, 8)));
	RUN(INS(PISA_ADDC, 0, PHV(A, 8), K(1, 8), K(1, 8)));
	expect("alu carry starts at 0", get(A, 8), 2);

	/* saturating */
	RUN(INS(PISA_ADDSAT, 0, PHV(A, 8), K(200, 8), K(100, 8)));
	expect("alu addsat unsigned", get(A, 8), 255);
	RUN(INS(PISA_ADDSAT, 0, PHV(A, 8), K(20, 8), K(100, 8)));
	expect("alu addsat unsigned no clamp", get(A, 8), 120);
	RUN(SINS(PISA_ADDSAT, PHV(A, 8), K(100, 8), K(100, 8)));
	expect("alu addsat signed high", get(A, 8), 0x7F);
	RUN(SINS(PISA_ADDSAT, PHV(A, 8), K(0x9C, 8), K(0x9C, 8)));	/* -100 + -100 */
	expect("alu addsat signed low", get(A, 8), 0x80);
	RUN(INS(PISA_SUBSAT, 0, PHV(A, 8), K(5, 8), K(10, 8)));
	expect("alu subsat unsigned", get(A, 8), 0);
	RUN(SINS(PISA_SUBSAT, PHV(A, 8), K(0x9C, 8), K(100, 8)));
	expect("alu subsat signed low", get(A, 8), 0x80);
	RUN(SINS(PISA_SUBSAT, PHV(A, 8), K(100, 8), K(0x9C, 8)));
	expect("alu subsat signed high", get(A, 8), 0x7F);
	RUN(SINS(PISA_SUBSAT, PHV(A, 8), K(0xFB, 8), K(3, 8)));	/* -5 - 3 */
	expect("alu subsat signed in range", get(A, 8), 0xF8);
	RUN(INS(PISA_ADDSAT, 0, PHV(A, 64), K(~0ull - 1, 64), K(5, 64)));
	expect("alu addsat unsigned 64", get(A, 64), ~0ull);

	/* mul, logic */
	RUN(INS(PISA_MUL, 0, PHV(A, 8), K(0x13, 8), K(0x11, 8)));
	expect("alu mul low bits", get(A, 8), (0x13 * 0x11) & 0xFF);
	RUN(INS(PISA_AND, 0, PHV(A, 8), K(0xF0, 8), K(0x3C, 8)),
	    INS(PISA_OR, 0, PHV(A + 8, 8), K(0xF0, 8), K(0x3C, 8)),
	    INS(PISA_XOR, 0, PHV(A + 16, 8), K(0xF0, 8), K(0x3C, 8)),
	    INS(PISA_NOT, 0, PHV(A + 24, 8), K(0x0F, 8), NO));
	expect("alu and or xor not", get(A, 32), 0x30FCCCF0);

	/* shifts */
	RUN(INS(PISA_SHL, 0, PHV(A, 8), K(0x81, 8), K(1, 8)));
	expect("alu shl", get(A, 8), 0x02);
	RUN(INS(PISA_SHL, 0, PHV(A, 8), K(0x81, 8), K(8, 8)));
	expect("alu shl by width", get(A, 8), 0);
	RUN(INS(PISA_SHR, 0, PHV(A, 8), K(0x80, 8), K(7, 8)));
	expect("alu shr", get(A, 8), 1);
	RUN(INS(PISA_SHR, 0, PHV(A, 8), K(0x80, 8), K(8, 8)));
	expect("alu shr by width", get(A, 8), 0);
	RUN(SINS(PISA_SHR, PHV(A, 8), K(0x80, 8), K(1, 8)));
	expect("alu shr signed", get(A, 8), 0xC0);
	RUN(SINS(PISA_SHR, PHV(A, 8), K(0x80, 8), K(9, 8)));
	expect("alu shr signed by width", get(A, 8), 0xFF);
	RUN(SINS(PISA_SHR, PHV(A, 8), K(0x40, 8), K(9, 8)));
	expect("alu shr signed positive by width", get(A, 8), 0);
	RUN(INS(PISA_SHL, 0, PHV(A, 64), K(1, 64), K(63, 8)));
	expect("alu shl 64", get(A, 64), 1ull << 63);

	/* comparisons, min, max */
	RUN(INS(PISA_LT, 0, PHV(A, 1), K(0xFF, 8), K(1, 8)),
	    SINS(PISA_LT, PHV(A + 1, 1), K(0xFF, 8), K(1, 8)),
	    INS(PISA_GE, 0, PHV(A + 2, 1), K(3, 8), K(3, 8)),
	    INS(PISA_GT, 0, PHV(A + 3, 1), K(3, 8), K(3, 8)),
	    INS(PISA_LE, 0, PHV(A + 4, 1), K(2, 8), K(3, 8)),
	    INS(PISA_EQ, 0, PHV(A + 5, 1), K(7, 8), K(7, 16)),
	    INS(PISA_NE, 0, PHV(A + 6, 1), K(7, 8), K(7, 16)),
	    SINS(PISA_GT, PHV(A + 7, 1), K(1, 8), K(0x80, 8)));
	expect("alu compare", get(A, 8), 0x6D);	/* 0 1 1 0 1 1 0 1 */
	RUN(INS(PISA_MIN, 0, PHV(A, 8), K(0xFE, 8), K(3, 8)),
	    SINS(PISA_MIN, PHV(A + 8, 8), K(0xFE, 8), K(3, 8)),
	    INS(PISA_MAX, 0, PHV(A + 16, 8), K(0xFE, 8), K(3, 8)),
	    SINS(PISA_MAX, PHV(A + 24, 8), K(0xFE, 8), K(3, 8)));
	expect("alu min max", get(A, 32), 0x03FEFE03);
	RUN(SINS(PISA_SET, PHV(A, 16), K(0x80, 8), NO));
	expect("alu signed operand sign-extends", get(A, 16), 0xFF80);

	/* jumps skip forward */
	RUN(INS(PISA_SET, 0, PHV(A, 8), K(0, 8), NO),
	    INS(PISA_JZ, 2, NO, K(0, 8), NO),
	    INS(PISA_SET, 0, PHV(A, 8), K(1, 8), NO),
	    INS(PISA_SET, 0, PHV(A, 8), K(2, 8), NO),
	    INS(PISA_JNZ, 1, NO, K(0, 8), NO),
	    INS(PISA_ADD, 0, PHV(A, 8), PHV(A, 8), K(10, 8)));
	expect("alu jz jnz", get(A, 8), 10);

	/* headers */
	memset(phv + 200, 0, 8);
	phv[200] = 0xDE; phv[201] = 0xAD; phv[202] = 0xBE; phv[203] = 0xEF;
	RUN(INS(PISA_SETVALID, h0, NO, NO, NO),
	    INS(PISA_COPYHDR, h1, NO, K(h0, 16), NO));
	expect("alu copyhdr bytes", get(204 * 8, 32), 0xDEADBEEF);
	expect("alu copyhdr validity", model_hdr_valid(m, phv, h1), 1);
	RUN(INS(PISA_SETINVALID, h0, NO, NO, NO));
	expect("alu setinvalid", model_hdr_valid(m, phv, h0) * 2 + model_hdr_valid(m, phv, h1), 1);
	expect("alu validity bit position", get(PISA_VALID_BIT(h1), 1), 1);

	/* exit stops the list */
	RUN(INS(PISA_SET, 0, PHV(A, 8), K(1, 8), NO),
	    INS(PISA_EXIT, 0, NO, NO, NO),
	    INS(PISA_SET, 0, PHV(A, 8), K(2, 8), NO));
	tb_check(last_rc == EXEC_EXIT && get(A, 8) == 1, "alu exit", "rc %d value %llu", last_rc,
		 (unsigned long long)get(A, 8));

	/* random: xorshift32 seeded with 1 */
	{
		uint32_t x1 = xs(1), x2 = xs(x1), x3 = xs(x2);

		RUN(INS(PISA_RANDOM, 0, PHV(A, 32), K(10, 32), K(19, 32)));
		expect("alu random first", get(A, 32), 10 + x1 % 10);
		RUN(INS(PISA_RANDOM, 0, PHV(A, 32), K(0, 32), K(0xFFFFFFFF, 32)));
		expect("alu random full range", get(A, 32), x2);
		RUN(INS(PISA_RANDOM, 0, PHV(A, 32), K(7, 32), K(3, 32)));
		expect("alu random b < a", get(A, 32), 7);
		RUN(INS(PISA_RANDOM, 0, PHV(A, 32), K(0, 32), K(999, 32)));
		expect("alu random steps once each", get(A, 32), xs(x3) % 1000);
	}

	/* hash units over "123456789" */
	memcpy(phv + A / 8, "123456789", 9);
	RUN(INS(PISA_HASH, 0, PHV(A + 128, 32), K(0, 8), K(0, 8)));
	expect("alu hash crc32 check value", get(A + 128, 32), 0xCBF43926);
	RUN(INS(PISA_HASH, 0, PHV(A + 128, 32), K(5, 8), K(1000, 16)));
	expect("alu hash base + mod", get(A + 128, 32), 5 + 0xCBF43926u % 1000);
	RUN(INS(PISA_HASH, 1, PHV(A + 128, 16), K(0, 8), K(0, 8)));
	expect("alu hash crc16 check value", get(A + 128, 16), 0xBB3D);
	RUN(INS(PISA_HASH, 2, PHV(A + 128, 64), K(0, 8), K(0, 8)));
	expect("alu hash identity low 64 bits", get(A + 128, 64), 0x3233343536373839ull);

	/* drop */
	RUN(INS(PISA_SET, 0, FLD(PISA_SM_MCAST_GRP), K(5, 16), NO),
	    INS(PISA_DROP, 0, NO, NO, NO));
	expect("alu drop", get(PISA_SM_EGRESS_SPEC.bitoff, 9) << 16 |
	       get(PISA_SM_MCAST_GRP.bitoff, 16), 511ull << 16);

	pisa_model_free(m);
	tb_done();
	return tb_failed;
}
