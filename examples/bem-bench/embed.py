#!/usr/bin/env python3
"""Writes a C++ header holding a text file as a string literal."""
import sys

src, dst, name = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(src, encoding="utf-8").read()
delim = "BEMEMBED"
assert ")" + delim not in text
with open(dst, "w", encoding="utf-8") as out:
    out.write("// Generated from %s; do not edit.\n#pragma once\n" % src.split("/")[-1])
    out.write("inline constexpr const char* %s = R\"%s(%s)%s\";\n" % (name, delim, text, delim))
