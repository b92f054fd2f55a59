/* Operator precedence and constant folding: each constant's folded value is in the golden file. */
#include <core.p4>
#include <v1model.p4>

const bit<8> MUL_OVER_ADD = 1 + 2 * 3;		/* 7 */
const bit<8> ADD_OVER_SHIFT = 1 << 2 + 1;	/* 8 */
const bool REL_OVER_EQ = 1 < 2 == 3 < 4;	/* true */
const bit<8> AND_OVER_OR = 0xF0 | 0x0F & 0x3C;	/* 0xFC = 252 */
const bit<8> AND_OVER_XOR = 8w1 ^ 8w3 & 8w2;	/* 3 */
const bit<8> XOR_OVER_OR = 8w1 | 8w3 ^ 8w2;	/* 1 */
const bool LAND_OVER_LOR = true || false && false;	/* true */
const bit<8> TERNARY_LOWEST = true ? 1 : 0 + 5;	/* 1 */
const bit<8> TERNARY_RIGHT = false ? 1 : true ? 2 : 3;	/* 2 */
const int UNARY_MINUS = -2 * 3;			/* -6 */
const bit<8> NOT_THEN_SHIFT = ~8w0 >> 4;	/* 15 */
const bit<8> SAT_ADD = 8w200 |+| 8w100;		/* 255 */
const bit<8> SAT_SUB = 8w5 |-| 8w10;		/* 0 */
const int<8> SAT_ADD_SIGNED = 8s100 |+| 8s100;	/* 127 */
const bit<16> CONCAT_LEFT = 8w1 ++ 8w2 + 16w0x100;	/* (0x0102) + 0x100 = 514 */
const bit<16> CONCAT_PAREN = 8w1 ++ (8w2 + 8w3);	/* 0x0105 = 261 */
const bit<4> CAST_TRUNC = (bit<4>)8w0xAB;	/* 11 */
const bit<8> SLICE = 16w0xABCD[11:4];		/* 0xBC = 188 */
const int<8> CAST_SIGNED = (int<8>)8w200;	/* -56 */
const int<8> WRAP = 8s127 + 8s1;		/* -128 */
const int DIV = 10 / 3;				/* 3 */
const int MOD = 10 % 3;				/* 1 */
const bit<8> SUB_WRAP = 8w0 - 1;		/* 255 */
const bit<32> SHIFT_OUT = 32w1 << 35;		/* 0 */
const bit<128> WIDE = 128w1 << 127;		/* 2^127 */
const bit<8> CAST_BOOL = (bit<8>)(bit<1>)true;	/* 1 */
const bool CMP_UNSIGNED = 8w255 > 8w1;		/* true */
const bool CMP_SIGNED = -8s1 < 8s1;		/* true */
const bit<8> HEX_UNDERSCORE = 0b1010_1010;	/* 170 */
const int BIG_INT = 0xffff_ffff_ffff_ffff * 16;	/* 2^68 - 16 */
const bit<8> FROM_CONST = MUL_OVER_ADD * 2;	/* 14 */

struct h_t { }
struct m_t { }

parser P(packet_in pkt, out h_t h, inout m_t m, inout standard_metadata_t sm) {
	state start {
		transition accept;
	}
}

control Nop(inout h_t h, inout m_t m) {
	apply { }
}

control Pipe(inout h_t h, inout m_t m, inout standard_metadata_t sm) {
	apply {
		sm.egress_spec = (bit<9>)(MUL_OVER_ADD + FROM_CONST);
	}
}

control D(packet_out pkt, in h_t h) {
	apply { }
}

V1Switch(P(), Nop(), Pipe(), Pipe(), Nop(), D()) main;
