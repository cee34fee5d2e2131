/*
 * main.c — labrun: run a lab (cli.c), or check a quiz's lab claims (--verify).
 */
#include <string.h>

#include "run.h"

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--verify") == 0)
            return verify_main(argc, argv);
    return labrun_main(argc, argv);
}
