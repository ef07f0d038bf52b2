/* The registry of subcommands, filled at program start. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static const cl_command *commands[32];
static size_t ncommands;

void cl_command_register(const cl_command *c)
{
    if (ncommands >= sizeof commands / sizeof commands[0]) { fprintf(stderr, "chartless: too many commands registered (%s); enlarge the table in cli/commands.c\n", c->name); abort(); };
    commands[ncommands++] = c;
}

const cl_command *cl_command_find(const char *name);
const cl_command *cl_command_find(const char *name)
{
    for (size_t i = 0; i < ncommands; i++)
        if (strcmp(commands[i]->name, name) == 0) return commands[i];
    return NULL;
}

size_t cl_command_count(void);
size_t cl_command_count(void) { return ncommands; }
const cl_command *cl_command_get(size_t i);
const cl_command *cl_command_get(size_t i) { return i < ncommands ? commands[i] : NULL; }
