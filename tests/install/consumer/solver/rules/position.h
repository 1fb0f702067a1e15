// The consumer's own solver/ folder: mancala's headers, which include each other, must not reach
// this file in place of <mancala/solver/rules/position.h>.
#pragma once
#error "the consumer's own solver/rules/position.h was included in place of mancala's"
