# Writes a public header as it is installed: cmake -DIN=<source header> -DOUT=<copy> -P this file.
#
# In the source tree a header includes the project's others by their path from the root
# ("solver/rules/position.h"); installed, they all live under include/mancala/ and a program
# reaches them as <mancala/solver/rules/position.h> with include/ on its include path, so that its
# own db/ or solver/ folder cannot be taken for ours. The copy says the same: each include of a
# project header, and of the generated mancala_version.h, becomes <mancala/...>. Nothing else of
# the header changes.
file(READ "${IN}" text)
string(REGEX REPLACE "#include \"((solver|db|tools)/[^\"]+)\"" "#include <mancala/\\1>" text
                     "${text}")
string(REPLACE "#include \"mancala_version.h\"" "#include <mancala/mancala_version.h>" text
               "${text}")
file(WRITE "${OUT}" "${text}")
