#!/usr/bin/env python3
"""Consistency checks on p4lower's P4Info (protobuf text format) and layout SVG.

usage: check_reports.py PROG.p4info.txtpb PROG.layout.svg
Prints a one-line summary on success; exits 1 with the first problem otherwise.
"""
import re
import sys
import xml.etree.ElementTree as ET

PREFIX = {"tables": 0x02, "actions": 0x01, "action_profiles": 0x11, "counters": 0x12,
          "direct_counters": 0x13, "meters": 0x14, "direct_meters": 0x15, "registers": 0x16,
          "digests": 0x17}
MATCH = {"EXACT", "LPM", "TERNARY", "RANGE", "OPTIONAL"}
TOKEN = re.compile(r'\s*(?:(\{)|(\})|([A-Za-z_][A-Za-z0-9_]*)\s*(:)?|("(?:[^"\\]|\\.)*")|(-?[0-9]+))')


def parse(text):
    """Text format -> list of (name, value) with value a str, int or nested list."""
    pos, stack, cur, key = 0, [], [], None
    while True:
        m = TOKEN.match(text, pos)
        if not m or m.end() == pos:
            if text[pos:].strip():
                raise ValueError("cannot parse at byte %d: %r" % (pos, text[pos:pos + 20]))
            break
        pos = m.end()
        lbrace, rbrace, ident, colon, string, number = m.groups()
        if lbrace:
            if key is None:
                raise ValueError("'{' without a field name at byte %d" % pos)
            stack.append((cur, key))
            cur, key = [], None
        elif rbrace:
            if not stack:
                raise ValueError("unbalanced '}' at byte %d" % pos)
            inner = cur
            cur, name = stack.pop()
            cur.append((name, inner))
        elif ident and key is None:
            key = ident
            if not colon:
                continue            # a message: '{' follows
        elif key is not None:
            cur.append((key, int(number) if number else string[1:-1] if string else ident))
            key = None
            continue
        if key is not None and colon:
            continue
    if stack or key is not None:
        raise ValueError("unterminated message")
    return cur


def get(msg, name):
    return [v for k, v in msg if k == name]


def one(msg, name):
    v = get(msg, name)
    if len(v) != 1:
        raise ValueError("expected one %s, found %d" % (name, len(v)))
    return v[0]


def check_p4info(path):
    info = parse(open(path).read())
    pkg = one(info, "pkg_info")
    if one(pkg, "arch") != "v1model":
        raise ValueError("pkg_info.arch is not v1model")
    ids = {}
    for kind, prefix in PREFIX.items():
        for obj in get(info, kind):
            pre = one(obj, "preamble")
            i, name = one(pre, "id"), one(pre, "name")
            if i >> 24 != prefix:
                raise ValueError("%s %s: id 0x%08x lacks prefix 0x%02x" % (kind, name, i, prefix))
            if i in ids:
                raise ValueError("id 0x%08x used by %s and %s" % (i, ids[i][1], name))
            if "$" in name:
                raise ValueError("%s %s: compiler-made object exposed" % (kind, name))
            ids[i] = (kind, name)
    for t in get(info, "tables"):
        name = one(one(t, "preamble"), "name")
        fids = [one(f, "id") for f in get(t, "match_fields")]
        if fids != list(range(1, len(fids) + 1)):
            raise ValueError("table %s: match field ids %s are not 1..n" % (name, fids))
        for f in get(t, "match_fields"):
            if one(f, "bitwidth") <= 0 or one(f, "match_type") not in MATCH:
                raise ValueError("table %s: bad match field %s" % (name, one(f, "name")))
        refs = [one(a, "id") for a in get(t, "action_refs")]
        if not refs:
            raise ValueError("table %s has no actions" % name)
        for r in refs + get(t, "const_default_action_id"):
            if ids.get(r, ("",))[0] != "actions":
                raise ValueError("table %s names action id 0x%08x, not an action" % (name, r))
        for r in get(t, "direct_resource_ids"):
            if ids.get(r, ("",))[0] not in ("direct_counters", "direct_meters"):
                raise ValueError("table %s: direct resource 0x%08x unknown" % (name, r))
        if one(t, "size") <= 0:
            raise ValueError("table %s: size %d" % (name, one(t, "size")))
        for r in get(t, "implementation_id"):
            prof = [p for p in get(info, "action_profiles") if one(one(p, "preamble"), "id") == r]
            if len(prof) != 1:
                raise ValueError("table %s: implementation_id 0x%08x is not an action profile" % (name, r))
            if one(one(t, "preamble"), "id") not in get(prof[0], "table_ids"):
                raise ValueError("table %s: its action profile does not list it" % name)
    for p in get(info, "action_profiles"):
        for r in get(p, "table_ids"):
            if ids.get(r, ("",))[0] != "tables":
                raise ValueError("action profile %s: table id 0x%08x unknown" % (one(one(p, "preamble"), "name"), r))
        if one(p, "size") <= 0:
            raise ValueError("action profile %s: size %d" % (one(one(p, "preamble"), "name"), one(p, "size")))
    for kind in ("direct_counters", "direct_meters"):
        for d in get(info, kind):
            if ids.get(one(d, "direct_table_id"), ("",))[0] != "tables":
                raise ValueError("%s %s: direct_table_id is not a table" %
                                 (kind, one(one(d, "preamble"), "name")))
    for a in get(info, "actions"):
        pids = [one(p, "id") for p in get(a, "params")]
        if pids != list(range(1, len(pids) + 1)):
            raise ValueError("action %s: param ids %s are not 1..n" % (one(one(a, "preamble"), "name"), pids))
    return len(get(info, "tables")), len(get(info, "actions"))


def check_svg(path):
    root = ET.parse(path).getroot()
    if root.tag != "{http://www.w3.org/2000/svg}svg":
        raise ValueError("root element is %s, not svg" % root.tag)
    for attr in ("width", "height"):
        if float(root.get(attr, "0")) <= 0:
            raise ValueError("svg %s missing" % attr)
    rects = root.findall(".//{http://www.w3.org/2000/svg}rect")
    if not rects:
        raise ValueError("no rect in the picture")
    return len(rects)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    try:
        tables, actions = check_p4info(sys.argv[1])
        rects = check_svg(sys.argv[2])
    except (ValueError, ET.ParseError, OSError) as e:
        print(e)
        sys.exit(1)
    print("%d tables, %d actions, %d rects" % (tables, actions, rects))


if __name__ == "__main__":
    main()
