#!/bin/sh
# The catalogue of bad input (tests/bad_input.sh) as part of make check.
exec sh "$(dirname "$0")/bad_input.sh"
