/* SPDX-License-Identifier: MIT */
/*
 * p4lower: recursive-descent parser for P4-16 (spec 1.2.x). The grammar rule a
 * function reads is written above it. A syntax error is reported once and the
 * parse stops (no cascades). Type names are tracked as they are declared, as
 * p4c's lexer does, to tell declarations from expressions.
 */
#include <string.h>
#include "ast.h"

#define MAX_DEPTH 200

struct parser {
	const struct p4_token *t;
	int pos, n;
	const char **tnames;	/* names that denote types, innermost last */
	int ntn, tcap;
	int depth;
	jmp_buf fail;
};

static const char *const nkind_names[N_NKINDS] = {
	"program", "const", "typedef", "type", "header", "struct", "header_union",
	"field", "enum", "member", "error", "match_kind", "extern", "method",
	"constructor", "extern_function", "parser_type", "control_type", "package",
	"parser", "state", "control", "action", "function", "table", "property",
	"key_element", "action_ref", "entry", "instance", "var", "param",
	"value_set", "type_param", "annotation",
	"bit", "int", "varbit", "int_any", "bool", "string", "error_type", "void",
	"type_name", "specialized", "stack", "tuple", "list", "dontcare_type",
	"match_kind_type",
	"block", "assign", "call_stmt", "if", "switch", "case", "exit", "return",
	"empty", "transition", "select", "select_case",
	"int_lit", "bool_lit", "string_lit", "name", "member", "index", "slice",
	"call", "unary", "binary", "ternary", "cast", "list_expr", "struct_expr",
	"named", "invalid", "default", "dontcare", "mask", "range", "tuple_key",
	"type_expr", "this",
};

const char *p4_nkind_name(enum p4_nkind k)
{
	return k < N_NKINDS ? nkind_names[k] : "?";
}

struct p4_node *p4_new(enum p4_nkind kind, struct p4_loc loc)
{
	struct p4_node *n = p4_alloc(sizeof(*n));

	n->kind = kind;
	n->loc = loc;
	return n;
}

/* ---- token helpers ---- */
static const struct p4_token *tok(struct parser *p, int ahead)
{
	int i = p->pos + ahead;

	return &p->t[i < p->n ? i : p->n - 1];
}

static enum p4_tok peek(struct parser *p, int ahead)
{
	return tok(p, ahead)->kind;
}

static struct p4_loc ploc(struct parser *p)
{
	return tok(p, 0)->loc;
}

static const struct p4_token *advance(struct parser *p)
{
	const struct p4_token *t = tok(p, 0);

	if (p->pos < p->n - 1)
		p->pos++;
	return t;
}

static int accept(struct parser *p, enum p4_tok k)
{
	if (peek(p, 0) != k)
		return 0;
	advance(p);
	return 1;
}

static void describe(const struct p4_token *t, char *buf, size_t n)
{
	if (t->kind == T_EOF)
		snprintf(buf, n, "end of file");
	else if (t->kind == T_STRING)
		snprintf(buf, n, "string \"%.40s\"", t->text);
	else
		snprintf(buf, n, "'%.*s'", t->len > 40 ? 40 : t->len, t->text);
}

static void __attribute__((noreturn)) syntax(struct parser *p, const char *what)
{
	char buf[80];

	describe(tok(p, 0), buf, sizeof(buf));
	p4_error(ploc(p), "syntax error: expected %s, found %s", what, buf);
	longjmp(p->fail, 1);
}

static void expect(struct parser *p, enum p4_tok k)
{
	char what[40];

	if (accept(p, k))
		return;
	snprintf(what, sizeof(what), "'%s'", p4_tok_name(k));
	syntax(p, what);
}

static void enter(struct parser *p)
{
	if (++p->depth > MAX_DEPTH) {
		p4_error(ploc(p), "nesting too deep (more than %d levels)", MAX_DEPTH);
		longjmp(p->fail, 1);
	}
}

static void leave(struct parser *p)
{
	p->depth--;
}

/* ---- type-name tracking ---- */
static void add_tname(struct parser *p, const char *name)
{
	if (p->ntn == p->tcap) {
		int cap = p->tcap ? p->tcap * 2 : 256;
		const char **v = p4_alloc(sizeof(*v) * cap);

		if (p->ntn)
			memcpy(v, p->tnames, sizeof(*v) * p->ntn);
		p->tnames = v;
		p->tcap = cap;
	}
	p->tnames[p->ntn++] = name;
}

static int is_tname(struct parser *p, const char *name)
{
	int i;

	for (i = p->ntn - 1; i >= 0; i--)
		if (!strcmp(p->tnames[i], name))
			return 1;
	return 0;
}

/* Keywords that p4c also accepts where a name is expected (nonTypeName). */
static int is_name_tok(enum p4_tok k)
{
	return k == T_IDENT || k == K_APPLY || k == K_KEY || k == K_ACTIONS || k == K_STATE ||
	       k == K_ENTRIES || k == K_TYPE || k == K_PRIORITY || k == K_LIST;
}

/* name: IDENTIFIER | APPLY | KEY | ACTIONS | STATE | ENTRIES | TYPE | PRIORITY | LIST */
static const char *name(struct parser *p)
{
	if (!is_name_tok(peek(p, 0)))
		syntax(p, "a name");
	return advance(p)->text;
}

static void append(struct p4_node **head, struct p4_node ***tail, struct p4_node *n)
{
	if (!*tail)
		*tail = head;
	**tail = n;
	*tail = &n->next;
}

/* Is the token at `ahead` the start of a type? */
static int type_start(struct parser *p, int ahead)
{
	const struct p4_token *t = tok(p, ahead);

	switch (t->kind) {
	case K_BIT: case K_INT: case K_VARBIT: case K_BOOL: case K_STRING: case K_TUPLE:
	case K_ERROR: case K_MATCH_KIND: case K_VOID:
		return 1;
	case T_IDENT:
		return is_tname(p, t->text);
	default:
		return 0;
	}
}

static struct p4_node *expr(struct parser *p);
static struct p4_node *type_ref(struct parser *p);
static struct p4_node *block(struct parser *p);
static struct p4_node *statement(struct parser *p);

/* ---- annotations ---- */
static void add_text(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
	if (*len + n + 2 > *cap) {
		size_t nc = (*cap + n + 2) * 2;
		char *b = p4_alloc(nc);

		if (*len)
			memcpy(b, *buf, *len);
		*buf = b;
		*cap = nc;
	}
	memcpy(*buf + *len, s, n);
	*len += n;
	(*buf)[*len] = 0;
}

/*
 * annotation: '@' name
 *           | '@' name '(' annotationBody ')'
 *           | '@' name '[' structuredAnnotationBody ']'
 * The body is kept as text (tokens separated by one space).
 */
static struct p4_node *annotation(struct parser *p)
{
	struct p4_loc l = ploc(p);
	struct p4_node *a;

	expect(p, P_AT);
	if (peek(p, 0) != T_IDENT && peek(p, 0) < K_ABSTRACT)
		syntax(p, "an annotation name");
	a = p4_new(N_ANNOT, l);
	a->name = advance(p)->text;
	if (peek(p, 0) == P_LPAREN || peek(p, 0) == P_LBRACK) {
		enum p4_tok open = peek(p, 0), close = open == P_LPAREN ? P_RPAREN : P_RBRACK;
		int depth = 0;
		char *buf = NULL;
		size_t len = 0, cap = 0;

		if (open == P_LBRACK)
			a->flags |= NF_STRUCTURED;
		/* `@name (x)` with a space is still the body in P4-16 */
		advance(p);
		add_text(&buf, &len, &cap, "", 0);
		for (;;) {
			const struct p4_token *t = tok(p, 0);

			if (t->kind == T_EOF)
				syntax(p, "the end of the annotation");
			if (t->kind == open)
				depth++;
			if (t->kind == close && depth-- == 0)
				break;
			if (len)
				add_text(&buf, &len, &cap, " ", 1);
			if (t->kind == T_STRING) {
				add_text(&buf, &len, &cap, "\"", 1);
				add_text(&buf, &len, &cap, t->text, strlen(t->text));
				add_text(&buf, &len, &cap, "\"", 1);
			} else if (t->kind == T_IDENT || (t->kind >= K_ABSTRACT && t->kind <= K_DONTCARE)) {
				add_text(&buf, &len, &cap, t->text, strlen(t->text));
			} else {
				add_text(&buf, &len, &cap, t->text, t->len);
			}
			advance(p);
		}
		advance(p);
		a->text = buf;
	}
	return a;
}

/* optAnnotations: { annotation } */
static struct p4_node *annotations(struct parser *p)
{
	struct p4_node *head = NULL, **tail = NULL;

	while (peek(p, 0) == P_AT)
		append(&head, &tail, annotation(p));
	return head;
}

/* ---- types ---- */

/* typeParameters: '<' name { ',' name } '>'   (the names become type names) */
static struct p4_node *type_params(struct parser *p)
{
	struct p4_node *head = NULL, **tail = NULL;

	if (!accept(p, P_LT))
		return NULL;
	do {
		struct p4_node *n = p4_new(N_TYPEPARAM, ploc(p));

		n->name = name(p);
		add_tname(p, n->name);
		append(&head, &tail, n);
	} while (accept(p, P_COMMA));
	expect(p, P_GT);
	return head;
}

/* typeArgumentList: typeArg { ',' typeArg }   typeArg: typeRef | '_' */
static struct p4_node *type_args(struct parser *p)
{
	struct p4_node *head = NULL, **tail = NULL;

	expect(p, P_LT);
	if (peek(p, 0) == P_GT)
		syntax(p, "a type argument");
	do {
		if (peek(p, 0) == K_DONTCARE)
			append(&head, &tail, p4_new(N_TDONTCARE, advance(p)->loc));
		else
			append(&head, &tail, type_ref(p));
	} while (accept(p, P_COMMA));
	expect(p, P_GT);
	return head;
}

/* width: INTEGER | name | '(' expression ')' */
static struct p4_node *width_expr(struct parser *p)
{
	if (peek(p, 0) == P_LPAREN) {
		struct p4_node *e;

		advance(p);
		e = expr(p);
		expect(p, P_RPAREN);
		return e;
	}
	if (peek(p, 0) == T_INT || is_name_tok(peek(p, 0))) {
		const struct p4_token *t = advance(p);
		struct p4_node *e = p4_new(t->kind == T_INT ? N_INTLIT : N_NAME, t->loc);

		if (t->kind == T_INT) {
			e->ival = t->value;
			e->width = t->width;
			e->has_width = t->width >= 0;
			e->is_signed = t->is_signed;
			e->base = t->base;
		} else {
			e->name = t->text;
		}
		return e;
	}
	syntax(p, "a width");
}

/*
 * typeRef: baseType | typeName [ '<' typeArgumentList '>' ] | tupleType
 *        | typeRef '[' expression ']'                       (header stack)
 * baseType: BOOL | ERROR | MATCH_KIND | STRING | VOID | INT
 *         | BIT [ '<' width '>' ] | INT '<' width '>' | VARBIT '<' width '>'
 * tupleType: TUPLE '<' typeArgumentList '>'   listType: LIST '<' typeArg '>'
 */
static struct p4_node *type_ref(struct parser *p)
{
	struct p4_loc l = ploc(p);
	struct p4_node *t = NULL, *st;

	enter(p);
	switch (peek(p, 0)) {
	case K_BIT:
	case K_VARBIT:
		t = p4_new(peek(p, 0) == K_BIT ? N_TBIT : N_TVARBIT, l);
		advance(p);
		if (accept(p, P_LT)) {
			t->k[0] = width_expr(p);
			expect(p, P_GT);
		} else if (t->kind == N_TVARBIT) {
			syntax(p, "'<' after varbit");
		}
		break;
	case K_INT:
		advance(p);
		if (accept(p, P_LT)) {
			t = p4_new(N_TINT, l);
			t->k[0] = width_expr(p);
			expect(p, P_GT);
		} else {
			t = p4_new(N_TINFINT, l);
		}
		break;
	case K_BOOL: advance(p); t = p4_new(N_TBOOL, l); break;
	case K_STRING: advance(p); t = p4_new(N_TSTRING, l); break;
	case K_ERROR: advance(p); t = p4_new(N_TERROR, l); break;
	case K_MATCH_KIND: advance(p); t = p4_new(N_TMATCHKIND, l); break;
	case K_VOID: advance(p); t = p4_new(N_TVOID, l); break;
	case K_DONTCARE: advance(p); t = p4_new(N_TDONTCARE, l); break;
	case K_TUPLE:
	case K_LIST:
		t = p4_new(peek(p, 0) == K_TUPLE ? N_TTUPLE : N_TLIST, l);
		advance(p);
		t->list = type_args(p);
		break;
	case P_DOT:
		advance(p);
		/* fall through */
	case T_IDENT:
		if (peek(p, 0) != T_IDENT)
			syntax(p, "a type");
		t = p4_new(N_TNAME, ploc(p));
		t->name = advance(p)->text;
		if (peek(p, 0) == P_LT) {
			t->kind = N_TSPEC;
			t->list2 = type_args(p);
		}
		break;
	default:
		syntax(p, "a type");
	}
	while (peek(p, 0) == P_LBRACK) {
		struct p4_node *s = p4_new(N_TSTACK, ploc(p));

		enter(p);
		advance(p);
		s->k[0] = t;
		s->k[1] = expr(p);
		expect(p, P_RBRACK);
		t = s;
	}
	for (st = t; st->kind == N_TSTACK; st = st->k[0])
		leave(p);
	leave(p);
	return t;
}

/* ---- expressions ---- */

/*
 * Could the `<` at `ahead` open a type-argument list of a call, as in
 * `pkt.lookahead<bit<8>>()`? Only if everything up to the matching `>` can be
 * part of a type and a `(` follows.
 */
static int looks_like_type_args(struct parser *p, int ahead)
{
	int depth = 0, i = ahead;

	if (tok(p, i)->kind != P_LT || !(type_start(p, i + 1) || tok(p, i + 1)->kind == K_DONTCARE))
		return 0;
	for (;; i++) {
		const struct p4_token *t = tok(p, i);

		switch (t->kind) {
		case P_LT:
			depth++;
			break;
		case P_GT:
			if (--depth == 0)
				return tok(p, i + 1)->kind == P_LPAREN;
			break;
		case T_IDENT: case T_INT: case K_BIT: case K_INT: case K_VARBIT: case K_BOOL:
		case K_TUPLE: case K_STRING: case K_ERROR: case K_DONTCARE: case P_COMMA:
		case P_LBRACK: case P_RBRACK:
			break;
		default:
			return 0;
		}
		if (i - ahead > 256)
			return 0;
	}
}

/* argument: expression | name '=' expression | '_' */
static struct p4_node *arguments(struct parser *p)
{
	struct p4_node *head = NULL, **tail = NULL;

	expect(p, P_LPAREN);
	if (accept(p, P_RPAREN))
		return NULL;
	do {
		struct p4_node *a;

		if (is_name_tok(peek(p, 0)) && peek(p, 1) == P_ASSIGN) {
			a = p4_new(N_NAMEDEXPR, ploc(p));
			a->name = advance(p)->text;
			advance(p);
			a->k[0] = expr(p);
		} else if (peek(p, 0) == K_DONTCARE) {
			a = p4_new(N_DONTCARE, advance(p)->loc);
		} else {
			a = expr(p);
		}
		append(&head, &tail, a);
	} while (accept(p, P_COMMA));
	expect(p, P_RPAREN);
	return head;
}

static struct p4_node *int_node(const struct p4_token *t)
{
	struct p4_node *e = p4_new(N_INTLIT, t->loc);

	e->ival = t->value;
	e->width = t->width;
	e->has_width = t->width >= 0;
	e->is_signed = t->is_signed;
	e->base = t->base;
	return e;
}

/*
 * initializer list: '{' '}' | '{' '#' '}' | '{' expressionList [','] '}'
 *                 | '{' kvPair { ',' kvPair } [','] '}'    kvPair: name '=' expression
 */
static struct p4_node *brace_expr(struct parser *p)
{
	struct p4_loc l = ploc(p);
	struct p4_node *e, **tail = NULL;

	expect(p, P_LBRACE);
	if (accept(p, P_HASH)) {
		expect(p, P_RBRACE);
		return p4_new(N_INVALID, l);
	}
	if (is_name_tok(peek(p, 0)) && peek(p, 1) == P_ASSIGN) {
		e = p4_new(N_STRUCTEXPR, l);
		do {
			struct p4_node *kv;

			if (peek(p, 0) == P_RBRACE)
				break;
			kv = p4_new(N_NAMEDEXPR, ploc(p));
			kv->name = name(p);
			expect(p, P_ASSIGN);
			kv->k[0] = expr(p);
			append(&e->list, &tail, kv);
		} while (accept(p, P_COMMA));
		expect(p, P_RBRACE);
		return e;
	}
	e = p4_new(N_LISTEXPR, l);
	while (peek(p, 0) != P_RBRACE) {
		append(&e->list, &tail, expr(p));
		if (!accept(p, P_COMMA))
			break;
	}
	expect(p, P_RBRACE);
	return e;
}

/* Is `( ... )` at the cursor a cast `(typeRef)`? */
static int is_cast(struct parser *p)
{
	int i = 1, depth = 0;

	if (!type_start(p, 1))
		return 0;
	/* `(error)` alone is not a cast unless something castable follows; keep it simple */
	for (;; i++) {
		enum p4_tok k = tok(p, i)->kind;

		if (k == P_LT || k == P_LBRACK)
			depth++;
		else if ((k == P_GT || k == P_RBRACK) && depth > 0)
			depth--;
		else if (k == P_RPAREN && depth == 0)
			break;
		else if (k == T_EOF || k == P_SEMI || k == P_LBRACE || (depth == 0 && k == P_DOT))
			return 0;
		if (i > 256)
			return 0;
	}
	/* a type name followed by `)` then an operand; `(x)` where x is a value is not a cast */
	return 1;
}

/*
 * primary: INTEGER | TRUE | FALSE | STRING_LITERAL | THIS | name | '.' name
 *        | ERROR | '(' expression ')' | initializer list | typeRef (in casts and calls)
 * prefix: ('!' | '~' | '-' | '+') prefix | '(' typeRef ')' prefix | postfix
 * postfix: primary { '.' name | '[' expression ']' | '[' expression ':' expression ']'
 *                  | [ '<' typeArgumentList '>' ] '(' argumentList ')' }
 */
static struct p4_node *unary(struct parser *p)
{
	struct p4_loc l = ploc(p);
	struct p4_node *e;
	const struct p4_token *t;
	int chain;

	enter(p);
	switch (peek(p, 0)) {
	case P_NOT: case P_TILDE: case P_MINUS: case P_PLUS:
		e = p4_new(N_UNARY, l);
		e->op = advance(p)->kind;
		e->k[0] = unary(p);
		leave(p);
		return e;
	case T_INT:
		e = int_node(advance(p));
		break;
	case K_TRUE: case K_FALSE:
		e = p4_new(N_BOOLLIT, l);
		e->ival = advance(p)->kind == K_TRUE;
		break;
	case T_STRING:
		e = p4_new(N_STRLIT, l);
		e->text = advance(p)->text;
		break;
	case K_THIS:
		advance(p);
		e = p4_new(N_THIS, l);
		break;
	case K_ERROR:
		advance(p);
		e = p4_new(N_NAME, l);
		e->name = "error";
		break;
	case P_DOT:
		advance(p);
		e = p4_new(N_NAME, ploc(p));
		e->name = name(p);
		break;
	case P_LBRACE:
		e = brace_expr(p);
		break;
	case P_LPAREN:
		if (is_cast(p)) {
			advance(p);
			e = p4_new(N_CAST, l);
			e->k[0] = type_ref(p);
			expect(p, P_RPAREN);
			e->k[1] = unary(p);
			leave(p);
			return e;
		}
		advance(p);
		e = expr(p);
		expect(p, P_RPAREN);
		break;
	case K_BIT: case K_INT: case K_VARBIT: case K_BOOL: case K_TUPLE: case K_STRING:
		/* a type used as an expression, e.g. as a call target */
		e = p4_new(N_TYPEEXPR, l);
		e->k[0] = type_ref(p);
		break;
	default:
		if (!is_name_tok(peek(p, 0)))
			syntax(p, "an expression");
		t = advance(p);
		e = p4_new(N_NAME, t->loc);
		e->name = t->text;
		break;
	}
	for (chain = 0;; chain++) {
		struct p4_node *x;

		/* postfix chains nest too (a.b.c is member(member(a))) */
		enter(p);
		l = ploc(p);
		if (accept(p, P_DOT)) {
			x = p4_new(N_MEMBER, l);
			x->k[0] = e;
			if (!is_name_tok(peek(p, 0)) && peek(p, 0) != K_ERROR)
				syntax(p, "a member name");
			x->loc = ploc(p);
			x->name = advance(p)->text;
			e = x;
		} else if (accept(p, P_LBRACK)) {
			struct p4_node *i = expr(p);

			if (accept(p, P_COLON)) {
				x = p4_new(N_SLICE, l);
				x->k[1] = i;
				x->k[2] = expr(p);
			} else {
				x = p4_new(N_INDEX, l);
				x->k[1] = i;
			}
			x->k[0] = e;
			expect(p, P_RBRACK);
			e = x;
		} else if (peek(p, 0) == P_LPAREN || looks_like_type_args(p, 0)) {
			x = p4_new(N_CALL, e->loc);
			x->k[0] = e;
			if (peek(p, 0) == P_LT)
				x->list2 = type_args(p);
			x->list = arguments(p);
			e = x;
		} else {
			break;
		}
	}
	p->depth -= chain + 1;
	leave(p);
	return e;
}

static int binary_prec(struct parser *p, int *two)
{
	*two = 0;
	switch (peek(p, 0)) {
	case P_OROR: return 1;
	case P_ANDAND: return 2;
	case P_PIPE: return 3;
	case P_CARET: return 4;
	case P_AMP: return 5;
	case P_EQ: case P_NE: return 6;
	case P_LT: case P_LE: case P_GE: return 7;
	case P_GT:
		/* `>>` is two adjacent `>` tokens so that `bit<bit<8>>` also works */
		if (peek(p, 1) == P_GT && !tok(p, 1)->space_before) {
			*two = 1;
			return 8;
		}
		return 7;
	case P_SHL: return 8;
	case P_PLUS: case P_MINUS: case P_SATADD: case P_SATSUB: case P_PP: return 9;
	case P_STAR: case P_SLASH: case P_PERCENT: return 10;
	default: return 0;
	}
}

/* Operator code of a shift right: not a token of its own, see binary_prec. */
#define OP_SHR T_NTOKS

/* binary: prefix { binop prefix }, by precedence climbing (all left-associative) */
static struct p4_node *binary(struct parser *p, int min)
{
	struct p4_node *lhs = unary(p);
	int two, prec, chain = 0;

	enter(p);
	while ((prec = binary_prec(p, &two)) >= min && prec > 0) {
		struct p4_node *e = p4_new(N_BINARY, ploc(p));

		/* a long chain is a deep (left-leaning) tree: it counts as nesting */
		enter(p);
		chain++;

		e->op = two ? OP_SHR : (int)peek(p, 0);
		advance(p);
		if (two)
			advance(p);
		e->k[0] = lhs;
		e->k[1] = binary(p, prec + 1);
		lhs = e;
	}
	p->depth -= chain;
	leave(p);
	return lhs;
}

/* expression: binary [ '?' expression ':' expression ] */
static struct p4_node *expr(struct parser *p)
{
	struct p4_node *c;

	enter(p);
	c = binary(p, 1);
	if (peek(p, 0) == P_QUESTION) {
		struct p4_node *e = p4_new(N_TERNARY, ploc(p));

		advance(p);
		e->k[0] = c;
		e->k[1] = expr(p);
		expect(p, P_COLON);
		e->k[2] = expr(p);
		c = e;
	}
	leave(p);
	return c;
}

/* simpleKeysetExpression: expression [ ('&&&' | '..') expression ] | DEFAULT | '_' */
static struct p4_node *simple_keyset(struct parser *p)
{
	struct p4_loc l = ploc(p);
	struct p4_node *e;

	if (accept(p, K_DEFAULT))
		return p4_new(N_DEFAULT, l);
	if (accept(p, K_DONTCARE))
		return p4_new(N_DONTCARE, l);
	e = expr(p);
	if (peek(p, 0) == P_MASK || peek(p, 0) == P_RANGE) {
		struct p4_node *m = p4_new(peek(p, 0) == P_MASK ? N_MASK : N_RANGE, ploc(p));

		advance(p);
		m->k[0] = e;
		m->k[1] = expr(p);
		e = m;
	}
	return e;
}

/* keysetExpression: tupleKeysetExpression | simpleKeysetExpression
 * tupleKeysetExpression: '(' simpleKeysetExpression { ',' simpleKeysetExpression } ')' */
static struct p4_node *keyset(struct parser *p)
{
	struct p4_loc l = ploc(p);
	struct p4_node *t, **tail = NULL;
	int save = p->pos;

	if (peek(p, 0) != P_LPAREN)
		return simple_keyset(p);
	advance(p);
	t = p4_new(N_TUPLEKEY, l);
	do
		append(&t->list, &tail, simple_keyset(p));
	while (accept(p, P_COMMA));
	expect(p, P_RPAREN);
	if (t->list->next == NULL && peek(p, 0) != P_COLON) {
		/* `(a) &&& b` or `(a + 1) .. b`: it was a parenthesised expression */
		p->pos = save;
		return simple_keyset(p);
	}
	return t;
}

/* ---- statements ---- */

/* variableDeclaration: annotations typeRef name [ '=' initializer ] ';' */
static struct p4_node *var_decl(struct parser *p, struct p4_node *annots)
{
	struct p4_node *v = p4_new(N_VARDECL, ploc(p));

	v->annots = annots;
	v->k[0] = type_ref(p);
	v->loc = ploc(p);
	v->name = name(p);
	if (accept(p, P_ASSIGN))
		v->k[1] = expr(p);
	expect(p, P_SEMI);
	return v;
}

/* constantDeclaration: annotations CONST typeRef name '=' initializer ';' */
static struct p4_node *const_decl(struct parser *p, struct p4_node *annots)
{
	struct p4_node *c = p4_new(N_CONST, ploc(p));

	c->annots = annots;
	expect(p, K_CONST);
	c->k[0] = type_ref(p);
	c->loc = ploc(p);
	c->name = name(p);
	expect(p, P_ASSIGN);
	c->k[1] = expr(p);
	expect(p, P_SEMI);
	return c;
}

/* `foo bar` where foo is no type: say so rather than report a syntax error at bar. */
static void unknown_type_check(struct parser *p)
{
	if (peek(p, 0) == T_IDENT && is_name_tok(peek(p, 1)) &&
	    (peek(p, 2) == P_SEMI || peek(p, 2) == P_ASSIGN || peek(p, 2) == P_LPAREN)) {
		p4_error(ploc(p), "unknown type '%s'", tok(p, 0)->text);
		longjmp(p->fail, 1);
	}
	if (peek(p, 0) == T_IDENT && peek(p, 1) == P_LPAREN) {
		/* `foo(...) name;` is an instantiation of an unknown type */
		int i = 2, depth = 1;

		while (depth > 0 && peek(p, i) != T_EOF && i < 4096) {
			if (peek(p, i) == P_LPAREN)
				depth++;
			else if (peek(p, i) == P_RPAREN)
				depth--;
			i++;
		}
		if (depth == 0 && is_name_tok(peek(p, i)) && peek(p, i + 1) == P_SEMI) {
			p4_error(ploc(p), "unknown type '%s'", tok(p, 0)->text);
			longjmp(p->fail, 1);
		}
	}
}

/* Does a declaration (typeRef name / instantiation) start here? */
static int decl_start(struct parser *p)
{
	enum p4_tok k0 = peek(p, 0), k1 = peek(p, 1);

	if (k0 == K_ERROR || k0 == K_BOOL || k0 == K_STRING || k0 == K_MATCH_KIND)
		return is_name_tok(k1);
	if (k0 == K_BIT || k0 == K_INT || k0 == K_VARBIT || k0 == K_TUPLE)
		return 1;
	if (k0 == T_IDENT && is_tname(p, tok(p, 0)->text))
		return is_name_tok(k1) || k1 == P_LT || k1 == P_LBRACK || k1 == P_LPAREN;
	return 0;
}

/*
 * switchStatement: SWITCH '(' expression ')' '{' { switchCase } '}'
 * switchCase: switchLabel ':' blockStatement | switchLabel ':'
 * switchLabel: DEFAULT | expression
 */
static struct p4_node *switch_stmt(struct parser *p)
{
	struct p4_node *s = p4_new(N_SWITCH, ploc(p)), **tail = NULL;

	expect(p, K_SWITCH);
	expect(p, P_LPAREN);
	s->k[0] = expr(p);
	expect(p, P_RPAREN);
	expect(p, P_LBRACE);
	while (!accept(p, P_RBRACE)) {
		struct p4_node *c = p4_new(N_CASE, ploc(p));

		if (peek(p, 0) == K_DEFAULT)
			c->k[0] = p4_new(N_DEFAULT, advance(p)->loc);
		else
			c->k[0] = expr(p);
		expect(p, P_COLON);
		if (peek(p, 0) == P_LBRACE)
			c->k[1] = block(p);
		append(&s->list, &tail, c);
	}
	return s;
}

/*
 * transitionStatement: TRANSITION stateExpression
 * stateExpression: name ';' | selectExpression
 * selectExpression: SELECT '(' expressionList ')' '{' { selectCase } '}'
 * selectCase: keysetExpression ':' name ';'
 */
static struct p4_node *transition(struct parser *p)
{
	struct p4_node *t = p4_new(N_TRANSITION, ploc(p));

	expect(p, K_TRANSITION);
	if (peek(p, 0) == K_SELECT) {
		struct p4_node *s = p4_new(N_SELECT, ploc(p)), **tail = NULL;

		advance(p);
		expect(p, P_LPAREN);
		do
			append(&s->list, &tail, expr(p));
		while (accept(p, P_COMMA));
		expect(p, P_RPAREN);
		expect(p, P_LBRACE);
		tail = NULL;
		while (!accept(p, P_RBRACE)) {
			struct p4_node *c = p4_new(N_SELCASE, ploc(p));

			c->annots = annotations(p);
			c->k[0] = keyset(p);
			expect(p, P_COLON);
			c->k[1] = p4_new(N_NAME, ploc(p));
			c->k[1]->name = name(p);
			expect(p, P_SEMI);
			append(&s->list2, &tail, c);
		}
		t->k[0] = s;
	} else {
		t->k[0] = p4_new(N_NAME, ploc(p));
		t->k[0]->name = name(p);
		expect(p, P_SEMI);
	}
	return t;
}

/*
 * statement: assignmentOrMethodCallStatement | conditionalStatement | emptyStatement
 *          | blockStatement | exitStatement | returnStatement | switchStatement
 *          | variableDeclaration | constantDeclaration
 * assignmentOrMethodCallStatement: lvalue '=' expression ';' | expression '(' args ')' ';'
 * conditionalStatement: IF '(' expression ')' statement [ ELSE statement ]
 */
static struct p4_node *statement(struct parser *p)
{
	struct p4_loc l = ploc(p);
	struct p4_node *s, *annots = NULL;

	enter(p);
	if (peek(p, 0) == P_AT)
		annots = annotations(p);
	switch (peek(p, 0)) {
	case P_LBRACE:
		s = block(p);
		break;
	case P_SEMI:
		advance(p);
		s = p4_new(N_EMPTY, l);
		break;
	case K_IF:
		advance(p);
		s = p4_new(N_IF, l);
		expect(p, P_LPAREN);
		s->k[0] = expr(p);
		expect(p, P_RPAREN);
		s->k[1] = statement(p);
		if (accept(p, K_ELSE))
			s->k[2] = statement(p);
		break;
	case K_SWITCH:
		s = switch_stmt(p);
		break;
	case K_EXIT:
		advance(p);
		expect(p, P_SEMI);
		s = p4_new(N_EXIT, l);
		break;
	case K_RETURN:
		advance(p);
		s = p4_new(N_RETURN, l);
		if (!accept(p, P_SEMI)) {
			s->k[0] = expr(p);
			expect(p, P_SEMI);
		}
		break;
	case K_CONST:
		s = const_decl(p, annots);
		break;
	case K_TRANSITION:
		s = transition(p);
		break;
	case K_FOR: case K_BREAK: case K_CONTINUE:
		p4_error(l, "'%s' loops are not supported (P4-16 1.2.x has no loops)",
			 p4_tok_name(peek(p, 0)));
		longjmp(p->fail, 1);
	default:
		if (decl_start(p) && peek(p, 1) != P_LPAREN) {
			s = var_decl(p, annots);
			break;
		}
		unknown_type_check(p);
		{
			struct p4_node *e = expr(p);

			if (accept(p, P_ASSIGN)) {
				s = p4_new(N_ASSIGN, l);
				s->loc = e->loc;
				s->k[0] = e;
				s->k[1] = expr(p);
			} else if (e->kind == N_CALL) {
				s = p4_new(N_CALLSTMT, e->loc);
				s->k[0] = e;
			} else {
				syntax(p, "'=' or a method call");
			}
			expect(p, P_SEMI);
		}
		break;
	}
	if (annots && !s->annots)
		s->annots = annots;
	leave(p);
	return s;
}

/* blockStatement: annotations '{' { statement } '}' */
static struct p4_node *block(struct parser *p)
{
	struct p4_node *b = p4_new(N_BLOCK, ploc(p)), **tail = NULL;

	enter(p);
	expect(p, P_LBRACE);
	while (!accept(p, P_RBRACE)) {
		if (peek(p, 0) == T_EOF)
			syntax(p, "'}'");
		append(&b->list, &tail, statement(p));
	}
	leave(p);
	return b;
}

/* ---- declarations ---- */

/* parameter: annotations [direction] typeRef name [ '=' expression ] */
static struct p4_node *params(struct parser *p)
{
	struct p4_node *head = NULL, **tail = NULL;

	expect(p, P_LPAREN);
	if (accept(p, P_RPAREN))
		return NULL;
	do {
		struct p4_node *a = annotations(p), *n = p4_new(N_PARAM, ploc(p));

		n->annots = a;
		if (accept(p, K_IN))
			n->op = D_IN;
		else if (accept(p, K_OUT))
			n->op = D_OUT;
		else if (accept(p, K_INOUT))
			n->op = D_INOUT;
		n->k[0] = type_ref(p);
		n->loc = ploc(p);
		n->name = name(p);
		if (accept(p, P_ASSIGN))
			n->k[1] = expr(p);
		append(&head, &tail, n);
	} while (accept(p, P_COMMA));
	expect(p, P_RPAREN);
	return head;
}

/* structField: annotations typeRef name ';'  (inside '{' '}') */
static struct p4_node *fields(struct parser *p)
{
	struct p4_node *head = NULL, **tail = NULL;

	expect(p, P_LBRACE);
	while (!accept(p, P_RBRACE)) {
		struct p4_node *a = annotations(p), *f = p4_new(N_FIELD, ploc(p));

		f->annots = a;
		f->k[0] = type_ref(p);
		f->loc = ploc(p);
		f->name = name(p);
		expect(p, P_SEMI);
		append(&head, &tail, f);
	}
	return head;
}

/* identifierList: '{' name { ',' name } [','] '}'   (error, match_kind, enum) */
static struct p4_node *members(struct parser *p, int with_values)
{
	struct p4_node *head = NULL, **tail = NULL;

	expect(p, P_LBRACE);
	while (peek(p, 0) != P_RBRACE) {
		struct p4_node *a = annotations(p), *m = p4_new(N_MEMBER_DECL, ploc(p));

		m->annots = a;
		m->name = name(p);
		if (with_values) {
			expect(p, P_ASSIGN);
			m->k[0] = expr(p);
		}
		append(&head, &tail, m);
		if (!accept(p, P_COMMA))
			break;
	}
	expect(p, P_RBRACE);
	return head;
}

/* actionRef: annotations name [ '(' argumentList ')' ] */
static struct p4_node *action_ref(struct parser *p)
{
	struct p4_node *a = annotations(p), *r = p4_new(N_ACTREF, ploc(p));

	r->annots = a;
	if (peek(p, 0) == P_DOT)
		advance(p);
	r->name = name(p);
	if (peek(p, 0) == P_LPAREN) {
		r->list = arguments(p);
		r->flags |= 1;	/* has an argument list */
	}
	return r;
}

/*
 * tableDeclaration: annotations TABLE name '{' { tableProperty } '}'
 * tableProperty: KEY '=' '{' { keyElement } '}'
 *              | ACTIONS '=' '{' { actionRef ';' } '}'
 *              | [CONST] ENTRIES '=' '{' { entry } '}'
 *              | annotations [CONST] name '=' initializer ';'
 * keyElement: expression ':' name annotations ';'
 * entry: [CONST] [PRIORITY '=' expression ':'] keysetExpression ':' actionRef annotations ';'
 */
static struct p4_node *table(struct parser *p, struct p4_node *annots)
{
	struct p4_node *t = p4_new(N_TABLE, ploc(p)), **ptail = NULL;

	t->annots = annots;
	expect(p, K_TABLE);
	t->loc = ploc(p);
	t->name = name(p);
	expect(p, P_LBRACE);
	while (!accept(p, P_RBRACE)) {
		struct p4_node *a = annotations(p), *pr = p4_new(N_PROP, ploc(p)), **tail = NULL;
		int is_const = accept(p, K_CONST);

		pr->annots = a;
		pr->loc = ploc(p);
		if (peek(p, 0) == K_KEY && peek(p, 1) == P_ASSIGN) {
			pr->op = PR_KEY;
			pr->name = "key";
			advance(p);
			advance(p);
			expect(p, P_LBRACE);
			while (!accept(p, P_RBRACE)) {
				struct p4_node *k = p4_new(N_KEYELEM, ploc(p));

				k->k[0] = expr(p);
				expect(p, P_COLON);
				k->loc = ploc(p);
				k->name = name(p);
				k->annots = annotations(p);
				expect(p, P_SEMI);
				append(&pr->list, &tail, k);
			}
		} else if (peek(p, 0) == K_ACTIONS && peek(p, 1) == P_ASSIGN) {
			pr->op = PR_ACTIONS;
			pr->name = "actions";
			advance(p);
			advance(p);
			expect(p, P_LBRACE);
			while (!accept(p, P_RBRACE)) {
				append(&pr->list, &tail, action_ref(p));
				expect(p, P_SEMI);
			}
		} else if (peek(p, 0) == K_ENTRIES && peek(p, 1) == P_ASSIGN) {
			pr->op = PR_ENTRIES;
			pr->name = "entries";
			if (is_const)
				pr->flags |= NF_CONST_ENTRIES;
			advance(p);
			advance(p);
			expect(p, P_LBRACE);
			while (!accept(p, P_RBRACE)) {
				struct p4_node *ea = annotations(p), *e = p4_new(N_ENTRY, ploc(p));

				e->annots = ea;
				if (accept(p, K_CONST))
					e->flags |= NF_CONST_ENTRIES;
				if (peek(p, 0) == K_PRIORITY && peek(p, 1) == P_ASSIGN) {
					advance(p);
					advance(p);
					e->k[2] = expr(p);
					expect(p, P_COLON);
				}
				e->k[0] = keyset(p);
				expect(p, P_COLON);
				e->k[1] = action_ref(p);
				if (peek(p, 0) == P_AT) {
					struct p4_node *more = annotations(p), **at = &e->annots;

					while (*at)
						at = &(*at)->next;
					*at = more;
				}
				expect(p, P_SEMI);
				append(&pr->list, &tail, e);
			}
		} else {
			pr->op = PR_OTHER;
			if (is_const)
				pr->flags |= NF_DEFAULT_CONST;
			pr->name = name(p);
			expect(p, P_ASSIGN);
			pr->k[0] = expr(p);
			expect(p, P_SEMI);
		}
		append(&t->list, &ptail, pr);
	}
	return t;
}

/* actionDeclaration: annotations ACTION name '(' parameterList ')' blockStatement */
static struct p4_node *action(struct parser *p, struct p4_node *annots)
{
	struct p4_node *a = p4_new(N_ACTION, ploc(p));

	a->annots = annots;
	expect(p, K_ACTION);
	a->loc = ploc(p);
	a->name = name(p);
	a->list = params(p);
	a->k[0] = block(p);
	return a;
}

/*
 * instantiation: annotations typeRef '(' argumentList ')' name [ '=' objInitializer ] ';'
 * objInitializer: '{' { functionDeclaration } '}'
 */
static struct p4_node *instantiation(struct parser *p, struct p4_node *annots);

/* functionDeclaration: annotations typeOrVoid name [typeParameters] '(' params ')' block */
static struct p4_node *function_rest(struct parser *p, struct p4_node *annots, struct p4_node *ret)
{
	struct p4_node *f = p4_new(N_FUNCTION, ploc(p));
	int mark = p->ntn;

	f->annots = annots;
	f->k[0] = ret;
	f->name = name(p);
	f->list2 = type_params(p);
	f->list = params(p);
	f->k[1] = block(p);
	p->ntn = mark;
	return f;
}

static struct p4_node *instantiation(struct parser *p, struct p4_node *annots)
{
	struct p4_node *i = p4_new(N_INSTANCE, ploc(p)), **tail = NULL;

	i->annots = annots;
	i->k[0] = type_ref(p);
	i->list = arguments(p);
	i->loc = ploc(p);
	i->name = name(p);
	if (accept(p, P_ASSIGN)) {
		expect(p, P_LBRACE);
		while (!accept(p, P_RBRACE)) {
			struct p4_node *a = annotations(p);

			append(&i->list4, &tail, function_rest(p, a, type_ref(p)));
		}
	}
	expect(p, P_SEMI);
	return i;
}

/*
 * valueSetDeclaration: annotations VALUE_SET '<' typeRef '>' '(' expression ')' name ';'
 */
static struct p4_node *value_set(struct parser *p, struct p4_node *annots)
{
	struct p4_node *v = p4_new(N_VALUESET, ploc(p));

	v->annots = annots;
	expect(p, K_VALUE_SET);
	expect(p, P_LT);
	v->k[0] = type_ref(p);
	expect(p, P_GT);
	expect(p, P_LPAREN);
	v->k[1] = expr(p);
	expect(p, P_RPAREN);
	v->loc = ploc(p);
	v->name = name(p);
	expect(p, P_SEMI);
	return v;
}

/*
 * A local element of a parser or control:
 * constantDeclaration | variableDeclaration | instantiation | valueSetDeclaration
 * | actionDeclaration | tableDeclaration
 */
static struct p4_node *local_decl(struct parser *p, int in_control)
{
	struct p4_node *a = annotations(p);

	switch (peek(p, 0)) {
	case K_CONST:
		return const_decl(p, a);
	case K_VALUE_SET:
		return value_set(p, a);
	case K_ACTION:
		if (in_control)
			return action(p, a);
		break;
	case K_TABLE:
		if (in_control)
			return table(p, a);
		break;
	default:
		if (decl_start(p)) {
			/* typeRef followed by '(' is an instantiation */
			int save = p->pos;
			int mark = p->depth;

			type_ref(p);
			p->depth = mark;
			if (peek(p, 0) == P_LPAREN) {
				p->pos = save;
				return instantiation(p, a);
			}
			p->pos = save;
			return var_decl(p, a);
		}
		break;
	}
	unknown_type_check(p);
	syntax(p, in_control ? "a declaration or 'apply'" : "a declaration or 'state'");
}

/* parserState: annotations STATE name '{' { statement } transitionStatement '}' */
static struct p4_node *state(struct parser *p, struct p4_node *annots)
{
	struct p4_node *s = p4_new(N_STATE, ploc(p)), **tail = NULL;

	s->annots = annots;
	expect(p, K_STATE);
	s->loc = ploc(p);
	s->name = name(p);
	expect(p, P_LBRACE);
	while (!accept(p, P_RBRACE)) {
		struct p4_node *st;

		if (peek(p, 0) == T_EOF)
			syntax(p, "'}'");
		st = statement(p);
		if (st->kind == N_TRANSITION) {
			s->k[0] = st;
			if (peek(p, 0) != P_RBRACE)
				syntax(p, "'}' after the transition");
			continue;
		}
		append(&s->list, &tail, st);
	}
	return s;
}

/*
 * parserTypeDeclaration: annotations PARSER name [typeParameters] '(' parameterList ')'
 * parserDeclaration: parserTypeDeclaration [ '(' ctorParameters ')' ]
 *                    '{' { parserLocalElement } { parserState } '}'
 * (controls alike, with controlLocalDeclarations and APPLY blockStatement)
 */
static struct p4_node *parser_or_control(struct parser *p, struct p4_node *annots)
{
	int is_control = peek(p, 0) == K_CONTROL;
	struct p4_node *n = p4_new(is_control ? N_CONTROL_TYPE : N_PARSER_TYPE, ploc(p)), **tail = NULL;
	int mark;

	n->annots = annots;
	advance(p);
	n->loc = ploc(p);
	n->name = name(p);
	add_tname(p, n->name);
	mark = p->ntn;
	n->list2 = type_params(p);
	n->list = params(p);
	if (accept(p, P_SEMI)) {
		p->ntn = mark;
		return n;
	}
	n->kind = is_control ? N_CONTROL : N_PARSER;
	if (peek(p, 0) == P_LPAREN) {
		n->list3 = params(p);
		n->flags |= 1;
	}
	expect(p, P_LBRACE);
	for (;;) {
		struct p4_node *a;

		if (accept(p, P_RBRACE))
			break;
		if (accept(p, P_SEMI))
			continue;
		if (is_control && accept(p, K_APPLY)) {
			n->k[0] = block(p);
			expect(p, P_RBRACE);
			break;
		}
		a = annotations(p);
		if (!is_control && peek(p, 0) == K_STATE) {
			append(&n->list4, &tail, state(p, a));
			continue;
		}
		if (a && peek(p, 0) != K_CONST && !decl_start(p) && peek(p, 0) != K_ACTION &&
		    peek(p, 0) != K_TABLE && peek(p, 0) != K_VALUE_SET)
			syntax(p, "a declaration");
		{
			struct p4_node *d = local_decl(p, is_control);

			if (a && !d->annots)
				d->annots = a;
			append(&n->list4, &tail, d);
		}
	}
	if (is_control && !n->k[0])
		p4_error(n->loc, "control '%s' has no apply block", n->name);
	p->ntn = mark;
	return n;
}

/*
 * externDeclaration: annotations EXTERN nonTypeName [typeParameters] '{' { methodPrototype } '}'
 *                  | annotations EXTERN functionPrototype ';'
 * methodPrototype: annotations TYPE_IDENTIFIER '(' parameterList ')' ';'   (constructor)
 *                | annotations [ABSTRACT] functionPrototype ';'
 * functionPrototype: typeOrVoid name [typeParameters] '(' parameterList ')'
 */
static struct p4_node *extern_decl(struct parser *p, struct p4_node *annots)
{
	struct p4_node *e, **tail = NULL;
	int mark;

	expect(p, K_EXTERN);
	if (peek(p, 0) == T_IDENT && (peek(p, 1) == P_LT || peek(p, 1) == P_LBRACE) &&
	    !(peek(p, 1) == P_LT && is_tname(p, tok(p, 0)->text))) {
		e = p4_new(N_EXTERN, ploc(p));
		e->annots = annots;
		e->name = advance(p)->text;
		add_tname(p, e->name);
		mark = p->ntn;
		e->list2 = type_params(p);
		expect(p, P_LBRACE);
		while (!accept(p, P_RBRACE)) {
			struct p4_node *a = annotations(p), *m;
			int abstract = accept(p, K_ABSTRACT);
			int mmark = p->ntn;

			if (peek(p, 0) == T_IDENT && !strcmp(tok(p, 0)->text, e->name) &&
			    peek(p, 1) == P_LPAREN) {
				m = p4_new(N_CTOR, ploc(p));
				m->name = advance(p)->text;
				m->list = params(p);
			} else {
				m = p4_new(N_METHOD, ploc(p));
				m->k[0] = type_ref(p);
				m->loc = ploc(p);
				m->name = name(p);
				m->list2 = type_params(p);
				m->list = params(p);
				if (abstract)
					m->flags |= NF_ABSTRACT;
			}
			m->annots = a;
			p->ntn = mmark;
			expect(p, P_SEMI);
			append(&e->list, &tail, m);
		}
		p->ntn = mark;
		return e;
	}
	e = p4_new(N_EXTERN_FUNC, ploc(p));
	e->annots = annots;
	e->k[0] = type_ref(p);
	e->loc = ploc(p);
	e->name = name(p);
	mark = p->ntn;
	e->list2 = type_params(p);
	e->list = params(p);
	p->ntn = mark;
	expect(p, P_SEMI);
	return e;
}

/*
 * declaration: constantDeclaration | externDeclaration | actionDeclaration
 *   | parserDeclaration | controlDeclaration | instantiation | errorDeclaration
 *   | matchKindDeclaration | functionDeclaration | typeDeclaration
 * typeDeclaration: headerTypeDeclaration | structTypeDeclaration
 *   | headerUnionDeclaration | enumDeclaration | typedefDeclaration
 *   | parserTypeDeclaration | controlTypeDeclaration | packageTypeDeclaration
 */
static struct p4_node *declaration(struct parser *p)
{
	struct p4_node *a = annotations(p), *d;
	struct p4_loc l = ploc(p);
	int mark;

	switch (peek(p, 0)) {
	case K_CONST:
		return const_decl(p, a);
	case K_EXTERN:
		return extern_decl(p, a);
	case K_ACTION:
		return action(p, a);
	case K_PARSER:
	case K_CONTROL:
		return parser_or_control(p, a);
	case K_ERROR:
	case K_MATCH_KIND:
		if (peek(p, 1) == P_LBRACE) {
			d = p4_new(peek(p, 0) == K_ERROR ? N_ERROR_DECL : N_MATCHKIND_DECL, l);
			advance(p);
			d->list = members(p, 0);
			d->annots = a;
			return d;
		}
		break;
	case K_HEADER:
	case K_STRUCT:
	case K_HEADER_UNION: {
		enum p4_tok k = advance(p)->kind;

		d = p4_new(k == K_HEADER ? N_HEADER : k == K_STRUCT ? N_STRUCT : N_UNION, ploc(p));
		d->annots = a;
		d->name = name(p);
		add_tname(p, d->name);
		mark = p->ntn;
		d->list2 = type_params(p);
		d->list = fields(p);
		p->ntn = mark;
		return d;
	}
	case K_ENUM:
		advance(p);
		d = p4_new(N_ENUM, ploc(p));
		d->annots = a;
		if (peek(p, 0) != T_IDENT) {
			d->k[0] = type_ref(p);
			d->loc = ploc(p);
		}
		d->name = name(p);
		add_tname(p, d->name);
		d->list = members(p, d->k[0] != NULL);
		return d;
	case K_TYPEDEF:
	case K_TYPE:
		d = p4_new(advance(p)->kind == K_TYPEDEF ? N_TYPEDEF : N_NEWTYPE, l);
		d->annots = a;
		d->k[0] = type_ref(p);
		d->loc = ploc(p);
		d->name = name(p);
		add_tname(p, d->name);
		expect(p, P_SEMI);
		return d;
	case K_PACKAGE:
		advance(p);
		d = p4_new(N_PACKAGE, ploc(p));
		d->annots = a;
		d->name = name(p);
		add_tname(p, d->name);
		mark = p->ntn;
		d->list2 = type_params(p);
		d->list = params(p);
		p->ntn = mark;
		expect(p, P_SEMI);
		return d;
	default:
		break;
	}
	if (type_start(p, 0) || peek(p, 0) == P_DOT) {
		int save = p->pos;
		struct p4_node *t = type_ref(p);

		if (peek(p, 0) == P_LPAREN) {
			p->pos = save;
			return instantiation(p, a);
		}
		return function_rest(p, a, t);
	}
	if (peek(p, 0) == T_IDENT && is_name_tok(peek(p, 1)) && peek(p, 2) == P_LT) {
		/* `T f<T>(...)`: the return type is one of the function's own type parameters */
		p4_error(tok(p, 1)->loc, "unsupported construct: generic function '%s'", tok(p, 1)->text);
		longjmp(p->fail, 1);
	}
	if (peek(p, 0) == T_IDENT && (peek(p, 1) == T_IDENT || peek(p, 1) == P_LPAREN)) {
		p4_error(l, "unknown type '%s'", tok(p, 0)->text);
		longjmp(p->fail, 1);
	}
	syntax(p, "a declaration");
}

/* program: { declaration | ';' } EOF */
static void program(struct parser *p, struct p4_node *prog)
{
	struct p4_node **tail = NULL;

	while (peek(p, 0) != T_EOF) {
		if (accept(p, P_SEMI))
			continue;
		append(&prog->list, &tail, declaration(p));
	}
}

struct p4_node *p4_parse(const struct p4_tokens *toks)
{
	static struct parser p;	/* static: survives the longjmp untouched */
	struct p4_node *volatile prog;

	memset(&p, 0, sizeof(p));
	p.t = toks->v;
	p.n = toks->n;
	prog = p4_new(N_PROGRAM, ploc(&p));
	if (setjmp(p.fail))
		return NULL;
	program(&p, prog);
	/* whole-program messages point at the end of the main file */
	prog->loc = ploc(&p);
	return prog;
}
