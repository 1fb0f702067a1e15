// The consumer's own db/ folder, as a program that uses mancala may well have: the installed
// headers are reached as <mancala/db/...>, so this file, on the consumer's include path, is never
// taken for mancala's db/table_answer.h.
#pragma once
#error "the consumer's own db/table_answer.h was included in place of mancala's"
