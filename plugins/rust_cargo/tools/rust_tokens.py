"""A Rust lexer for the dataset's text checks (near_duplicates.py, contamination.py).

tokens(text) gives (kind, text) pairs: kind is one of keyword, ident, lifetime,
num, str, char, punct, comment. It is a lexer, not a parser: whitespace and
layout vanish, nested block comments, raw strings and byte strings are single
tokens, and anything it does not know (a stray byte) is a one-character punct
token, so any text, Rust or not, can be tokenised.
"""
import re

KEYWORDS = frozenset("""as async await break const continue crate dyn else enum extern false fn for if impl in let loop
match mod move mut pub ref return self Self static struct super trait true type union unsafe use where while""".split())

_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<comment>//[^\n]*)
  | (?P<block>/\*)
  | (?P<rawstr>[bc]?r(?P<hashes>\#*)")
  | (?P<str>[bc]?"(?:\\.|[^"\\])*"?)
  | (?P<char>b?'(?:\\(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F_]*\}|.)|[^'\\\n])')
  | (?P<lifetime>'(?:r\#)?[A-Za-z_]\w*)
  | (?P<num>0[xob][0-9a-fA-F_]+\w*|\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d[\d_]*)?\w*)
  | (?P<ident>(?:r\#)?[A-Za-z_]\w*)
  | (?P<punct>::|->|=>|==|!=|<=|>=|&&|\|\||<<=|>>=|<<|>>|\.\.=|\.\.\.|\.\.|[-+*/%^&|]=|.)
""", re.X | re.S)


def block_comment_end(text, i):
    """The end of the (nested) block comment that starts at text[i]."""
    depth, j = 0, i
    while j < len(text):
        if text.startswith("/*", j):
            depth, j = depth + 1, j + 2
        elif text.startswith("*/", j):
            depth, j = depth - 1, j + 2
            if depth == 0:
                return j
        else:
            j += 1
    return len(text)


def tokens(text):
    out, i, n = [], 0, len(text)
    while i < n:
        m = _TOKEN.match(text, i)
        kind = m.lastgroup if m.lastgroup != "hashes" else "rawstr"
        if kind == "block":
            end = block_comment_end(text, i)
            out.append(("comment", text[i:end]))
            i = end
            continue
        if kind == "rawstr":
            close = '"' + m.group("hashes")
            end = text.find(close, m.end())
            end = n if end < 0 else end + len(close)
            out.append(("str", text[i:end]))
            i = end
            continue
        if kind == "ident" and m.group() in KEYWORDS:
            kind = "keyword"
        if kind != "ws":
            out.append((kind, m.group()))
        i = m.end()
    return out
