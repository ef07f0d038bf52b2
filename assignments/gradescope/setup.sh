#!/bin/sh
# Gradescope runs this once, as root, when it builds the autograder's image:
# Debian's (or Ubuntu's) packages for chartless, then chartless itself from
# the copy of the repository in the zip (source/chartless), installed under
# /usr/local (the command, the library, cl_student.h).
set -e
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q build-essential pkg-config python3 libmpfr-dev libgmp-dev libflint-arb-dev
make -C /autograder/source/chartless -j"$(nproc)" install PREFIX=/usr/local
ldconfig
