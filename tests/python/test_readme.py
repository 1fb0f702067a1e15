"""The Python example session of docs/python.md runs exactly as shown, and every result its
comments state is the one it gets."""
import ast
import io
import os
import tokenize

from conftest import python_doc_block


def expected_value(comment):
    """The Python value a comment starts with ("114430", "+6", '["A", "B", ...]', "True"), and
    whether it is a prefix (it ends with "..."), or None when the comment is prose."""
    text = comment.lstrip("#").strip()
    if text[:1] in "[{":
        depth = 0
        for end, c in enumerate(text):
            depth += c in "[{"
            depth -= c in "]}"
            if depth == 0:
                break
        literal = text[: end + 1]
        prefix = ", ...]" in literal or ", ...}" in literal
        literal = literal.replace(", ...]", "]").replace(", ...}", "}")
        return ast.literal_eval(literal), prefix
    token = text.split()[0].rstrip(":,") if text else ""
    try:
        return ast.literal_eval(token), False
    except (ValueError, SyntaxError):
        return None


def matches(actual, expected, prefix):
    if not prefix:
        return actual == expected
    if isinstance(expected, dict):
        return list(actual.items())[: len(expected)] == list(expected.items())
    return list(actual)[: len(expected)] == list(expected)


def test_readme_session_runs_as_shown(awari_db, tmp_path, monkeypatch):
    # The example opens "path/to/db": give it that path, holding the tables the fixture built.
    (tmp_path / "path" / "to").mkdir(parents=True)
    os.symlink(awari_db, tmp_path / "path" / "to" / "db")
    monkeypatch.chdir(tmp_path)
    namespace = {}
    checked = 0
    for line in python_doc_block().splitlines():
        comments = [t.string for t in tokenize.generate_tokens(io.StringIO(line).readline)
                    if t.type == tokenize.COMMENT]
        code = line.split(comments[0])[0].strip() if comments else line.strip()
        if not code:
            continue
        expected = expected_value(comments[0]) if comments else None
        try:
            expression = compile(code, "docs/python.md", "eval")
        except SyntaxError:
            exec(compile(code, "docs/python.md", "exec"), namespace)
            continue
        actual = eval(expression, namespace)
        if expected is not None:
            value, prefix = expected
            assert matches(actual, value, prefix), \
                f"{code}: got {actual!r}, docs/python.md says {comments[0]}"
            checked += 1
    assert checked >= 6, "docs/python.md's comments state the results of at least six calls"
