/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pisa_image.h: the config image in memory, i.e. the programming model of
 * the OpenPISA pipeline (docs/architecture.md) as C structures.
 *
 * Everything that the compiler writes and that the hardware, pisa-model and
 * the daemon read meets here. The byte encoding of these structures is in
 * pisa_image.c and docs/config-image.md.
 *
 * Conventions used throughout:
 *  - The PHV is a byte array of phv_bytes bytes. Fields are addressed by bit
 *    offset and width, bit 0 being the most significant bit of PHV byte 0
 *    (network order, as headers sit in the packet).
 *  - Values of up to 64 bits travel as uint64_t, right-aligned.
 *  - Wider values (keys, rows) are big-endian byte strings, right-aligned.
 */
#ifndef PISA_IMAGE_H
#define PISA_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#define PISA_IMAGE_MAGIC 0x41534950u /* "PISA" read as a little-endian u32 */
#define PISA_IMAGE_VERSION_MAJOR 1
#define PISA_IMAGE_VERSION_MINOR 2

/* Ports: 9 bits as in v1model; 511 means drop. */
#define PISA_PORT_BITS 9
#define PISA_PORT_DROP 511
#define PISA_PORT_CPU_DEFAULT 255

/* ---- Fixed PHV layout (bytes 0..63), then validity bits, then the rest. ----
 * Each standard_metadata field is right-aligned in a byte container.
 * The PISA_SM_* macros give (bit offset, width) pairs. */
#define PISA_FIELD(byteoff, bytes, width) \
	((struct pisa_field){ (uint16_t)((byteoff) * 8 + (bytes) * 8 - (width)), (width) })

#define PISA_SM_INGRESS_PORT            PISA_FIELD(0, 2, 9)
#define PISA_SM_EGRESS_SPEC             PISA_FIELD(2, 2, 9)
#define PISA_SM_EGRESS_PORT             PISA_FIELD(4, 2, 9)
#define PISA_SM_MCAST_GRP               PISA_FIELD(6, 2, 16)
#define PISA_SM_EGRESS_RID              PISA_FIELD(8, 2, 16)
#define PISA_SM_CHECKSUM_ERROR          PISA_FIELD(10, 1, 1)
#define PISA_SM_PRIORITY                PISA_FIELD(11, 1, 3)
#define PISA_SM_INSTANCE_TYPE           PISA_FIELD(12, 4, 32)
#define PISA_SM_PACKET_LENGTH           PISA_FIELD(16, 4, 32)
#define PISA_SM_ENQ_TIMESTAMP           PISA_FIELD(20, 4, 32)
#define PISA_SM_ENQ_QDEPTH              PISA_FIELD(24, 4, 19)
#define PISA_SM_DEQ_TIMEDELTA           PISA_FIELD(28, 4, 32)
#define PISA_SM_DEQ_QDEPTH              PISA_FIELD(32, 4, 19)
#define PISA_SM_PARSER_ERROR            PISA_FIELD(36, 4, 32)
#define PISA_SM_INGRESS_GLOBAL_TIMESTAMP PISA_FIELD(40, 6, 48)
#define PISA_SM_EGRESS_GLOBAL_TIMESTAMP PISA_FIELD(46, 6, 48)
/* Intrinsic requests to the traffic manager, written by instructions. */
#define PISA_IM_CLONE_SESSION           PISA_FIELD(52, 2, 16)
#define PISA_IM_CLONE_TYPE              PISA_FIELD(54, 1, 8) /* enum pisa_clone_type */
#define PISA_IM_CLONE_FLIST             PISA_FIELD(55, 1, 8) /* field list id + 1, 0 = none */
#define PISA_IM_RESUBMIT_FLIST          PISA_FIELD(56, 1, 8) /* 0 = no request, else field list id + 1 */
#define PISA_IM_RECIRC_FLIST            PISA_FIELD(57, 1, 8) /* 0 = no request, else field list id + 1 */
#define PISA_IM_TRUNCATE_LEN            PISA_FIELD(58, 2, 16) /* 0 = no truncation */
/* Bytes 60..63 are reserved and read as zero. */
#define PISA_PHV_FIXED_BYTES 64
/* Header h's validity bit is the PHV bit PISA_PHV_FIXED_BYTES * 8 + h. */
#define PISA_VALID_BIT(h) ((uint16_t)(PISA_PHV_FIXED_BYTES * 8 + (h)))

enum pisa_instance_type {	/* values as BMv2 simple_switch uses them */
	PISA_INSTANCE_NORMAL = 0,
	PISA_INSTANCE_INGRESS_CLONE = 1,
	PISA_INSTANCE_EGRESS_CLONE = 2,
	PISA_INSTANCE_COALESCED = 3,
	PISA_INSTANCE_RECIRC = 4,
	PISA_INSTANCE_REPLICATION = 5,
	PISA_INSTANCE_RESUBMIT = 6,
};

enum pisa_clone_type { PISA_CLONE_NONE = 0, PISA_CLONE_I2E = 1, PISA_CLONE_E2E = 2 };

/* core.p4 errors; programs' own errors are numbered from PISA_ERROR_USER. */
enum pisa_parser_error {
	PISA_ERROR_NO_ERROR = 0,
	PISA_ERROR_PACKET_TOO_SHORT = 1,
	PISA_ERROR_NO_MATCH = 2,
	PISA_ERROR_STACK_OUT_OF_BOUNDS = 3,
	PISA_ERROR_HEADER_TOO_SHORT = 4,
	PISA_ERROR_PARSER_TIMEOUT = 5,
	PISA_ERROR_PARSER_INVALID_ARGUMENT = 6,
	PISA_ERROR_USER = 7,
};

/* v1model HashAlgorithm, in v1model.p4's declaration order. */
enum pisa_hash_algo {
	PISA_HASH_CRC32 = 0,
	PISA_HASH_CRC32_CUSTOM = 1,
	PISA_HASH_CRC16 = 2,
	PISA_HASH_CRC16_CUSTOM = 3,
	PISA_HASH_RANDOM = 4,
	PISA_HASH_IDENTITY = 5,
	PISA_HASH_CSUM16 = 6,
	PISA_HASH_XOR16 = 7,
	PISA_HASH_COUNT
};

/* A PHV field: bit offset from the MSB of PHV byte 0, width 1..64. */
struct pisa_field {
	uint16_t bitoff;
	uint16_t width;
};

/* ---- Instructions (parser ops, action code, gateway code) ----
 * Parser states may use the ALU opcodes, skips and validity (PISA_NOP ..
 * PISA_SETINVALID) plus the parser-only ones; stages may use everything but
 * the parser-only ones. */

enum pisa_operand_kind {
	PISA_OPND_NONE = 0,
	PISA_OPND_PHV = 1,	/* PHV bits [off, off + width) */
	PISA_OPND_CONST = 2,	/* value, width bits */
	PISA_OPND_ADATA = 3,	/* action data bits [off, off + width) of the row that ran */
	PISA_OPND_PKT = 4,	/* parser only: packet bits at cursor * 8 + off (lookahead) */
};

struct pisa_operand {
	uint8_t kind;		/* enum pisa_operand_kind */
	uint16_t off;		/* bit offset (PHV, ADATA, PKT) */
	uint16_t width;		/* 1..64 */
	uint64_t value;		/* CONST only */
};

/*
 * Opcodes. Unless noted, dst is a PHV operand; a and b are read as unsigned
 * width-bit values zero-extended to 64 bits (sign-extended from their own
 * width when the instruction has PISA_INSN_SIGNED), the operation is done
 * in 64 bits, and the result is truncated to dst.width.
 */
enum pisa_opcode {
	PISA_NOP = 0,
	PISA_SET,		/* dst = a */
	PISA_ADD,		/* dst = a + b; carry := carry out of bit dst.width */
	PISA_SUB,		/* dst = a - b; carry := borrow */
	PISA_ADDC,		/* dst = a + b + carry (chains wide adds, low part first) */
	PISA_SUBC,		/* dst = a - b - carry */
	PISA_ADDSAT,		/* |+| : saturate at dst width (signed with PISA_INSN_SIGNED) */
	PISA_SUBSAT,		/* |-| */
	PISA_MUL,		/* low dst.width bits of a * b */
	PISA_AND, PISA_OR, PISA_XOR,
	PISA_NOT,		/* dst = ~a */
	PISA_SHL,		/* dst = a << b; b >= dst.width gives 0 */
	PISA_SHR,		/* dst = a >> b (arithmetic with PISA_INSN_SIGNED, from a.width) */
	PISA_EQ, PISA_NE, PISA_LT, PISA_LE, PISA_GT, PISA_GE,	/* dst = 0 or 1 */
	PISA_MIN, PISA_MAX,
	PISA_JZ,		/* if a == 0, skip the next imm instructions */
	PISA_JNZ,		/* if a != 0, skip the next imm instructions */
	PISA_SETVALID,		/* header imm becomes valid */
	PISA_SETINVALID,	/* header imm becomes invalid */
	PISA_COPYHDR,		/* header imm := header a.value: bytes and validity */
	PISA_EXIT,		/* stop the action; the pipeline pass ends (P4 exit) */
	/* Externs */
	PISA_COUNT,		/* counter imm, index a (ignored for size-1 arrays) */
	PISA_REG_READ,		/* dst = register imm [a] */
	PISA_REG_WRITE,		/* register imm [a] = b */
	PISA_METER,		/* dst = colour of meter imm [a] for this packet */
	PISA_DMETER,		/* dst = colour of the table's direct meter, row that hit */
	PISA_HASH,		/* dst = a + (hash unit imm % b) (b == 0: a + hash) */
	PISA_RANDOM,		/* dst = a + (rng % (b - a + 1)); rng steps once */
	PISA_CLONE,		/* clone type imm, session a, field list b.value (0 none, else id+1) */
	PISA_RESUBMIT,		/* resubmit with field list a.value (id + 1) */
	PISA_RECIRCULATE,	/* recirculate with field list a.value (id + 1) */
	PISA_TRUNCATE,		/* truncate output to a bytes */
	PISA_DIGEST,		/* send digest imm to the CPU */
	PISA_DROP,		/* mark_to_drop: egress_spec = 511 (and mcast_grp = 0) */
	/* Parser only */
	PISA_EXTRACT,		/* extract header imm at the cursor; cursor += length */
	PISA_EXTRACT_STACK,	/* extract the next element of stack imm */
	PISA_EXTRACT_VAR,	/* header imm: fixed_bytes, then a bits (a multiple of 8, <= the
				 * header's maximum) of variable part */
	PISA_ADVANCE,		/* cursor += a bits (a multiple of 8) */
	PISA_OPCODE_COUNT
};

#define PISA_INSN_SIGNED 0x01

struct pisa_insn {
	uint8_t op;		/* enum pisa_opcode */
	uint8_t flags;		/* PISA_INSN_* */
	uint16_t imm;		/* extern / header / stack id, skip count, clone type */
	struct pisa_operand dst, a, b;
};

/* ---- Headers and stacks ---- */
struct pisa_header {
	uint16_t phv_byte;	/* where the header's bytes start in the PHV */
	uint16_t bytes;		/* fixed length; for a varbit header, the maximum */
	uint16_t fixed_bytes;	/* bytes extracted before the variable part */
};

struct pisa_stack {
	uint16_t first_header;	/* elements are headers first_header .. + size - 1 */
	uint16_t size;
};

/* ---- Parser ---- */
#define PISA_PARSER_ACCEPT 0xFFFE
#define PISA_PARSER_REJECT 0xFFFF
#define PISA_PARSER_MAX_KEY 4
#define PISA_PARSER_MAX_STEPS 256	/* states visited before ParserTimeout */

struct pisa_parser_row {
	uint64_t value, mask;	/* over the state's key, right-aligned */
	uint16_t next;		/* state id, PISA_PARSER_ACCEPT or PISA_PARSER_REJECT */
	uint16_t error;		/* parser_error when next is REJECT */
};

struct pisa_parser_state {
	uint16_t nops;
	struct pisa_insn *ops;
	uint8_t nkey;		/* key operands (PHV or PKT), concatenated, total <= 64 bits */
	struct pisa_operand key[PISA_PARSER_MAX_KEY];
	uint16_t nrows;		/* first matching row wins; no match: reject, NoMatch */
	struct pisa_parser_row *rows;
};

/* ---- Tables ---- */
enum pisa_match_kind {
	PISA_MATCH_EXACT = 0,
	PISA_MATCH_TERNARY = 1,
	PISA_MATCH_LPM = 2,
	PISA_MATCH_RANGE = 3,
	PISA_MATCH_OPTIONAL = 4,
};

enum pisa_table_mem {
	PISA_MEM_NONE = 0,	/* keyless: always misses, runs the default row */
	PISA_MEM_HASH = 1,	/* all keys exact: d-way hash, one entry per bucket */
	PISA_MEM_TCAM = 2,	/* any other: rows scanned, lowest matching row wins */
};

enum pisa_next_mode {
	PISA_NEXT_HITMISS = 0,	/* next = hit ? next_hit : next_miss */
	PISA_NEXT_ACTION = 1,	/* next = action_next[index of the action that ran] */
	PISA_NEXT_COND = 2,	/* next = cond != 0 ? next_hit : next_miss (gateways) */
};

#define PISA_NEXT_END 0xFFFF	/* the pipeline pass ends */
#define PISA_HASH_MAX_WAYS 4

struct pisa_key_field {
	struct pisa_field field;	/* a PHV field (validity bits included) */
	uint8_t match;			/* enum pisa_match_kind */
};

struct pisa_table_action {
	uint16_t action;	/* global action id */
	uint16_t next;		/* PISA_NEXT_ACTION: where to go after this action;
				 * other modes: PISA_NEXT_END (checked like any next) */
	uint8_t flags;		/* PISA_TA_* (from @defaultonly / @tableonly) */
};
#define PISA_TA_DEFAULT_ONLY 0x01
#define PISA_TA_TABLE_ONLY 0x02

struct pisa_table {
	uint8_t gress;		/* 0 ingress, 1 egress */
	uint8_t stage;		/* stage engine it runs in */
	uint8_t mem;		/* enum pisa_table_mem */
	uint8_t next_mode;	/* enum pisa_next_mode */
	uint16_t nkeys;
	struct pisa_key_field *keys;
	uint16_t key_bits;	/* sum of key widths (derived; checked on read) */
	uint16_t adata_bits;	/* action data bits in each row */
	uint8_t ways;		/* HASH: 1..PISA_HASH_MAX_WAYS */
	uint8_t way_bits;	/* HASH: log2 buckets per way */
	uint32_t rows;		/* TCAM: rows; HASH: ways << way_bits (derived) */
	uint16_t nactions;
	struct pisa_table_action *actions;
	uint16_t next_hit, next_miss;	/* table ids or PISA_NEXT_END */
	struct pisa_field cond;		/* PISA_NEXT_COND only */
	int16_t direct_counter;		/* counter id or -1 */
	int16_t direct_meter;		/* meter id or -1 */
	uint16_t default_action;	/* initial default row: action id ... */
	uint16_t default_adata_len;	/* ... and its action data bytes */
	uint8_t *default_adata;
};

/* ---- Actions ---- */
struct pisa_action {
	uint16_t ninsns;
	struct pisa_insn *insns;
	uint16_t adata_bits;	/* action data it reads */
};

/* ---- Externs ---- */
enum pisa_counter_kind { PISA_COUNTER_PACKETS = 0, PISA_COUNTER_BYTES = 1, PISA_COUNTER_BOTH = 2 };
enum pisa_meter_kind { PISA_METER_PACKETS = 0, PISA_METER_BYTES = 1 };
enum pisa_meter_colour { PISA_GREEN = 0, PISA_YELLOW = 1, PISA_RED = 2 };

struct pisa_counter {
	uint8_t kind;		/* enum pisa_counter_kind */
	uint32_t size;		/* cells; a direct counter has its table's rows */
	int16_t direct_table;	/* table id or -1 */
};

struct pisa_register {
	uint16_t width;		/* 1..64 */
	uint32_t size;
};

struct pisa_meter {
	uint8_t kind;		/* enum pisa_meter_kind */
	uint32_t size;
	int16_t direct_table;
};

struct pisa_field_list {
	uint16_t nfields;
	struct pisa_field *fields;	/* concatenated MSB first */
};

struct pisa_hash_unit {
	uint8_t algo;		/* enum pisa_hash_algo */
	uint16_t field_list;
	/* crc16_custom / crc32_custom: */
	uint8_t crc_width;	/* 16 or 32 */
	uint8_t reflect_in, reflect_out;
	uint32_t poly, init, xor_out;
};

struct pisa_digest {
	uint16_t field_list;
};

enum pisa_checksum_kind { PISA_CSUM_VERIFY = 0, PISA_CSUM_UPDATE = 1 };

struct pisa_checksum {
	uint8_t kind;		/* enum pisa_checksum_kind */
	uint8_t with_payload;
	uint8_t algo;		/* enum pisa_hash_algo (csum16 usually) */
	struct pisa_operand cond;	/* PHV or CONST; the unit runs iff cond != 0 */
	uint16_t field_list;
	struct pisa_field dst;	/* verify: compared with; update: written */
};

/* ---- Control-plane names (runtime info) ---- */
struct pisa_rt_key {
	char *name;		/* as P4Runtime / BMv2 name it, e.g. "hdr.ipv4.dstAddr" */
	uint16_t width;
	uint8_t match;
};

struct pisa_rt_param {
	char *name;
	uint16_t width;
	uint16_t adata_off;	/* bit offset in the row's action data */
};

struct pisa_rt_action {
	char *name;		/* fully qualified: "MyIngress.ipv4_forward" */
	uint32_t p4info_id;
	uint16_t nparams;
	struct pisa_rt_param *params;
};

struct pisa_rt_table {
	char *name;
	uint32_t p4info_id;
	uint32_t size;		/* entries the program asked for */
	uint8_t const_entries;	/* the entries are fixed by the program */
	uint8_t const_default;	/* the default action is fixed */
	uint16_t nkeys;
	struct pisa_rt_key *keys;	/* same order as pisa_table.keys */
};

struct pisa_rt_named {		/* counters, registers, meters, digests, value sets */
	char *name;
	uint32_t p4info_id;
};

/*
 * An action profile or selector (v1model action_profile / action_selector),
 * lowered onto two ordinary tables (docs/architecture.md, "Action profiles and
 * selectors"): each match table's entries run member_action(index), which
 * selects the member's row of member_table, or (selector) group_action(base,
 * size), which hashes the selector keys into one of the group's slots. The
 * control plane (lib/pisa_ctl.c) keeps members and groups.
 */
#define PISA_NO_ACTION 0xFFFF

struct pisa_rt_profile_table {
	uint16_t table;		/* a match table whose actions point into the profile */
	uint16_t member_action;	/* its action with one parameter, index (key_width bits) */
	uint16_t group_action;	/* selector: its action with parameters base and size
				 * (key_width bits each); else PISA_NO_ACTION */
};

struct pisa_rt_profile {
	char *name;		/* "MyIngress.ecmp_selector" */
	uint32_t p4info_id;
	uint8_t with_selector;
	uint32_t size;		/* members: member_table keys 0 .. size - 1 */
	uint32_t slots;		/* selector: group slots, keys size .. size + slots - 1 */
	uint32_t max_group_size;	/* P4Runtime's max_group_size, 0 = not given */
	uint16_t member_table;	/* one exact key of key_width bits; the all-ones key is
				 * never an entry: it selects the default action */
	uint16_t ntables;
	struct pisa_rt_profile_table *tables;
};

/* An entry fixed in the image (const entries): a row as lib/pisa_entry.c encodes it. */
struct pisa_const_row {
	uint16_t table;
	uint32_t index;
	uint16_t len;
	uint8_t *bytes;
};

/* ---- The whole image ---- */
struct pisa_image {
	char board[16];		/* profile the image was built for, e.g. "sim" */
	char program[64];	/* source program name */
	uint16_t phv_bytes;
	uint16_t cpu_port;
	uint16_t nstages;	/* stages used (<= profile's) */

	uint16_t nheaders;
	struct pisa_header *headers;
	uint16_t nstacks;
	struct pisa_stack *stacks;

	uint16_t parser_start;
	uint16_t nstates;
	struct pisa_parser_state *states;

	uint16_t ingress_start, egress_start;	/* table ids or PISA_NEXT_END */
	uint16_t ntables;	/* sorted by (gress, stage); the id is the index */
	struct pisa_table *tables;
	uint16_t nactions;
	struct pisa_action *actions;

	uint16_t ncounters;
	struct pisa_counter *counters;
	uint16_t nregisters;
	struct pisa_register *registers;
	uint16_t nmeters;
	struct pisa_meter *meters;
	uint16_t nfield_lists;
	struct pisa_field_list *field_lists;
	uint16_t nhash_units;
	struct pisa_hash_unit *hash_units;
	uint16_t ndigests;
	struct pisa_digest *digests;
	uint16_t nchecksums;
	struct pisa_checksum *checksums;

	uint16_t ndeparse;	/* emit order: header ids */
	uint16_t *deparse;

	uint16_t mcast_groups;	/* capacity of the replication engine */
	uint16_t mcast_nodes;
	uint16_t clone_sessions;

	/* runtime info, index-parallel with the arrays above */
	struct pisa_rt_table *rt_tables;	/* ntables */
	struct pisa_rt_action *rt_actions;	/* nactions */
	struct pisa_rt_named *rt_counters;	/* ncounters */
	struct pisa_rt_named *rt_registers;	/* nregisters */
	struct pisa_rt_named *rt_meters;	/* nmeters */
	struct pisa_rt_named *rt_digests;	/* ndigests */
	char **rt_headers;			/* nheaders: "hdr.ipv4", "hdr.srcRoutes[0]" */
	uint16_t nerrors;
	char **rt_errors;			/* error names by code */

	uint32_t nconst_rows;
	struct pisa_const_row *const_rows;

	uint16_t nprofiles;			/* (1.2) action profiles and selectors */
	struct pisa_rt_profile *rt_profiles;
};

/* Errors returned (negated) by lib/ functions. */
enum pisa_err {
	PISA_OK = 0,
	PISA_E_NOMEM = 1,
	PISA_E_IO = 2,
	PISA_E_FORMAT = 3,	/* malformed bytes; a detail string says where */
	PISA_E_VERSION = 4,
	PISA_E_CRC = 5,
	PISA_E_RANGE = 6,	/* a value outside what the image or profile allows */
	PISA_E_NOTFOUND = 7,
	PISA_E_FULL = 8,
	PISA_E_EXISTS = 9,
	PISA_E_INVAL = 10,
};

const char *pisa_strerror(int err);

/*
 * Reading and writing. pisa_image_read() checks the version, every section's
 * bounds and CRC, and then the image's consistency (ids in range, fields
 * inside the PHV, forward-only next pointers); on failure it returns a
 * negative pisa_err and writes "section NAME, byte OFFSET: why" into detail.
 */
int pisa_image_read(const uint8_t *buf, size_t len, struct pisa_image **out,
		    char *detail, size_t detail_len);
int pisa_image_read_file(const char *path, struct pisa_image **out,
			 char *detail, size_t detail_len);
int pisa_image_write(const struct pisa_image *img, uint8_t **buf, size_t *len);
int pisa_image_write_file(const struct pisa_image *img, const char *path);
/* Consistency checks only (also run by the writer). */
int pisa_image_check(const struct pisa_image *img, char *detail, size_t detail_len);
void pisa_image_free(struct pisa_image *img);

#endif
