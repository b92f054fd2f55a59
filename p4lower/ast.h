/* SPDX-License-Identifier: MIT */
/* p4lower front end: tokens, AST, types and the interfaces between the stages. */
#ifndef P4LOWER_AST_H
#define P4LOWER_AST_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <setjmp.h>

/* Constants are folded in 128-bit arithmetic; wider constants are an error. */
typedef __int128 p4_int;
typedef unsigned __int128 p4_uint;

/* ---- arena (everything the front end allocates lives here, freed at once) ---- */
void *p4_alloc(size_t n);
char *p4_strndup(const char *s, size_t n);
char *p4_strdup(const char *s);
void p4_arena_free(void);

/* ---- source locations and diagnostics (diag.c) ---- */
struct p4_src {
	const char *name;	/* file name as given by the line markers */
	const char *text;	/* the preprocessed buffer the lexer reads */
	size_t len;
	int original_columns;	/* map columns back to the files cpp read (p4_fix_columns) */
};

struct p4_loc {
	const char *file;	/* file the line marker named */
	int line, col;
	const char *linep;	/* start of this line in the buffer, for the caret */
};

#define P4_MAX_ERRORS 20

struct p4_diag {
	FILE *out;		/* where messages go (stderr, or NULL to drop them) */
	int errors;
	int max_errors;
	jmp_buf *bail;		/* longjmp target once max_errors is reached */
};

extern struct p4_diag p4_diag;

void p4_error(struct p4_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void p4_note(struct p4_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- tokens (lex.c) ---- */
enum p4_tok {
	T_EOF, T_IDENT, T_INT, T_STRING,
	/* keywords */
	K_ABSTRACT, K_ACTION, K_ACTIONS, K_APPLY, K_BOOL, K_BIT, K_BREAK, K_CONST,
	K_CONTINUE, K_CONTROL, K_DEFAULT, K_ELSE, K_ENTRIES, K_ENUM, K_ERROR,
	K_EXIT, K_EXTERN, K_FALSE, K_FOR, K_HEADER, K_HEADER_UNION, K_IF, K_IN,
	K_INOUT, K_INT, K_KEY, K_LIST, K_MATCH_KIND, K_OUT, K_PACKAGE, K_PARSER,
	K_PRIORITY, K_RETURN, K_SELECT, K_STATE, K_STRING, K_STRUCT, K_SWITCH,
	K_TABLE, K_THIS, K_TRANSITION, K_TRUE, K_TUPLE, K_TYPE, K_TYPEDEF,
	K_VALUE_SET, K_VARBIT, K_VOID, K_DONTCARE,
	/* punctuation */
	P_LBRACE, P_RBRACE, P_LPAREN, P_RPAREN, P_LBRACK, P_RBRACK, P_LT, P_GT,
	P_LE, P_GE, P_EQ, P_NE, P_SEMI, P_COMMA, P_DOT, P_COLON, P_QUESTION,
	P_PLUS, P_MINUS, P_STAR, P_SLASH, P_PERCENT, P_AMP, P_PIPE, P_CARET,
	P_TILDE, P_NOT, P_ANDAND, P_OROR, P_MASK, P_PP, P_SATADD, P_SATSUB,
	P_SHL, P_ASSIGN, P_AT, P_RANGE, P_HASH,
	T_NTOKS
};

struct p4_token {
	enum p4_tok kind;
	struct p4_loc loc;
	const char *text;	/* identifier / string contents, literal spelling */
	int len;
	/* integer literals */
	p4_int value;
	int width;		/* -1: no width given */
	int is_signed;
	int base;		/* 2, 8, 10, 16: kept for dumps */
	int space_before;	/* whitespace before it: `>>` must be adjacent */
};

struct p4_tokens {
	struct p4_token *v;
	int n;
};

int p4_lex(const struct p4_src *src, struct p4_tokens *out);
void p4_fix_columns(struct p4_tokens *toks);
const char *p4_tok_name(enum p4_tok k);

/* ---- AST (parse.c) ---- */
enum p4_nkind {
	N_PROGRAM,
	/* declarations */
	N_CONST, N_TYPEDEF, N_NEWTYPE, N_HEADER, N_STRUCT, N_UNION, N_FIELD,
	N_ENUM, N_MEMBER_DECL, N_ERROR_DECL, N_MATCHKIND_DECL, N_EXTERN,
	N_METHOD, N_CTOR, N_EXTERN_FUNC, N_PARSER_TYPE, N_CONTROL_TYPE,
	N_PACKAGE, N_PARSER, N_STATE, N_CONTROL, N_ACTION, N_FUNCTION,
	N_TABLE, N_PROP, N_KEYELEM, N_ACTREF, N_ENTRY, N_INSTANCE, N_VARDECL,
	N_PARAM, N_VALUESET, N_TYPEPARAM, N_ANNOT,
	/* types */
	N_TBIT, N_TINT, N_TVARBIT, N_TINFINT, N_TBOOL, N_TSTRING, N_TERROR,
	N_TVOID, N_TNAME, N_TSPEC, N_TSTACK, N_TTUPLE, N_TLIST, N_TDONTCARE,
	N_TMATCHKIND,
	/* statements */
	N_BLOCK, N_ASSIGN, N_CALLSTMT, N_IF, N_SWITCH, N_CASE, N_EXIT,
	N_RETURN, N_EMPTY, N_TRANSITION, N_SELECT, N_SELCASE,
	/* expressions */
	N_INTLIT, N_BOOLLIT, N_STRLIT, N_NAME, N_MEMBER, N_INDEX, N_SLICE,
	N_CALL, N_UNARY, N_BINARY, N_TERNARY, N_CAST, N_LISTEXPR, N_STRUCTEXPR,
	N_NAMEDEXPR, N_INVALID, N_DEFAULT, N_DONTCARE, N_MASK, N_RANGE,
	N_TUPLEKEY, N_TYPEEXPR, N_THIS,
	N_NKINDS
};

enum p4_dir { D_NONE, D_IN, D_OUT, D_INOUT };

/* Property kinds of a table. */
enum p4_prop { PR_KEY, PR_ACTIONS, PR_ENTRIES, PR_OTHER };

struct p4_type;

/*
 * One node shape for everything: the kids are a fixed small array plus lists,
 * which keeps the dumper generic. Slots per kind (k0..k3 = k[0..3]; unlisted = NULL):
 *   CONST        k0 type, k1 value; after check: is_const, cval
 *   TYPEDEF/NEWTYPE k0 type                      HEADER/STRUCT/UNION list fields (FIELD: k0 type)
 *   ENUM         k0 underlying type or NULL, list members (MEMBER_DECL: k0 value or NULL)
 *   ERROR_DECL/MATCHKIND_DECL list members
 *   EXTERN       list2 type params, list METHOD (k0 return type, list params, list2
 *                type params) and CTOR (list params)
 *   EXTERN_FUNC  k0 return type, list params, list2 type params
 *   PARSER_TYPE/CONTROL_TYPE/PACKAGE list params, list2 type params
 *   PARSER       list params, list3 ctor params, list4 locals then STATEs
 *   STATE        list statements, k0 TRANSITION (k0 NAME or SELECT: list keys,
 *                list2 SELCASE: k0 keyset, k1 NAME of the next state)
 *   CONTROL      list params, list3 ctor params, list4 locals, k0 apply BLOCK
 *   ACTION       list params, k0 body      FUNCTION k0 return type, list params, k1 body
 *   TABLE        list PROP (op = enum p4_prop; KEY: list KEYELEM (k0 expr, name =
 *                match kind); ACTIONS: list ACTREF (list args); ENTRIES: list ENTRY
 *                (k0 keyset, k1 ACTREF, k2 priority or NULL); OTHER: k0 value)
 *   INSTANCE     k0 type, list ctor args    VARDECL k0 type, k1 init or NULL
 *   PARAM        op = enum p4_dir, k0 type, k1 default or NULL
 *   VALUESET     k0 element type, k1 size
 *   types        TBIT/TINT/TVARBIT k0 width; TNAME name; TSPEC name, list2 args;
 *                TSTACK k0 element, k1 size; TTUPLE list elements
 *   BLOCK list; ASSIGN k0 lhs, k1 rhs; CALLSTMT k0 CALL; IF k0 cond, k1 then, k2 else;
 *   SWITCH k0 expr, list CASE (k0 label or DEFAULT, k1 BLOCK or NULL = fall through);
 *   RETURN k0 value or NULL
 *   MEMBER k0 base, name; INDEX k0, k1; SLICE k0, k1 hi, k2 lo; CALL k0 callee,
 *   list args, list2 type args; UNARY/BINARY op (a p4_tok; T_NTOKS is `>>`) k0 [k1];
 *   TERNARY k0 k1 k2; CAST k0 type, k1 expr; LISTEXPR list; STRUCTEXPR list NAMEDEXPR
 *   (name, k0); MASK/RANGE k0 k1; TUPLEKEY list
 * check.c sets type on every expression and typed declaration, decl on names,
 * members (the FIELD or MEMBER_DECL), key elements and action refs, and
 * is_const/cval on everything it folded.
 */
struct p4_node {
	enum p4_nkind kind;
	struct p4_loc loc;
	const char *name;		/* declared or referenced name, member name */
	struct p4_node *k[4];		/* fixed children */
	struct p4_node *list;		/* list children (fields, params, stmts, args) */
	struct p4_node *list2;		/* type parameters / type arguments */
	struct p4_node *list3;		/* constructor parameters */
	struct p4_node *list4;		/* locals (and parser states) */
	struct p4_node *annots;		/* annotations */
	struct p4_node *next;		/* sibling in a list */
	int op;				/* operator token, direction, property kind */
	int flags;			/* N_ENTRY: const; N_ANNOT: structured; ... */
	/* literals */
	p4_int ival;
	int width, is_signed, has_width, base;
	const char *text;		/* string literal, annotation body */
	/* filled in by check.c */
	struct p4_type *type;
	struct p4_node *decl;		/* what a name refers to */
	int is_const;			/* value known at compile time */
	p4_int cval;			/* the folded value */
};

#define NF_CONST_ENTRIES 1		/* N_PROP entries: `const entries` */
#define NF_ABSTRACT 2			/* N_METHOD: abstract */
#define NF_STRUCTURED 4			/* N_ANNOT: @x[...] */
#define NF_DEFAULT_CONST 8		/* N_PROP: `const default_action` */
#define NF_NOBODY 16			/* N_ACTION with no body (never) / decl-only */

struct p4_node *p4_parse(const struct p4_tokens *toks);
const char *p4_nkind_name(enum p4_nkind k);
struct p4_node *p4_new(enum p4_nkind kind, struct p4_loc loc);

/* ---- types (check.c) ---- */
enum p4_tkind {
	TY_ERR, TY_VOID, TY_BOOL, TY_BIT, TY_INT, TY_VARBIT, TY_INFINT,
	TY_STRING, TY_ERROR, TY_MATCHKIND, TY_HEADER, TY_STRUCT, TY_UNION,
	TY_STACK, TY_ENUM, TY_TUPLE, TY_LIST, TY_EXTERN, TY_PARSER, TY_CONTROL,
	TY_PACKAGE, TY_TYPEVAR, TY_ACTION, TY_TABLE, TY_DONTCARE, TY_STATE,
	TY_NEWTYPE, TY_FUNC, TY_SET, TY_APPLYRES, TY_VALUESET, TY_METHOD,
	TY_TYPE
};

struct p4_type {
	enum p4_tkind kind;
	int width;			/* bit, int, varbit widths */
	int size;			/* stack size, tuple length */
	const char *name;
	struct p4_node *decl;		/* declaring node for named types */
	struct p4_type *elem;		/* stack element, enum/newtype base, set element */
	struct p4_type **args;		/* tuple elements or type arguments */
	int nargs;
};

int p4_check(struct p4_node *prog);
const char *p4_type_str(const struct p4_type *t);

/* ---- dumps (dump.c) ---- */
void p4_dump_tokens(FILE *f, const struct p4_tokens *toks);
void p4_dump_ast(FILE *f, const struct p4_node *prog, int checked);

/* ---- the front end as one call (main.c and the fuzz target share it) ---- */
enum p4_stage { ST_NONE, ST_TOKENS, ST_AST, ST_CHECKED };

/*
 * Runs lex, parse, check on a preprocessed buffer; dumps `dump` to dumpf. 0 ok,
 * 1 errors. On success *prog (if not NULL) is the checked program, valid until
 * p4_arena_free(): the back end's passes go after the front end's there.
 */
int p4_frontend(const struct p4_src *src, enum p4_stage dump, FILE *dumpf, struct p4_node **prog);

/* libFuzzer entry point (fuzz.c): runs the front end on one preprocessed input. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
