/* The toy pipeline the test lab stands for. */
#include <stdio.h>

// snippet: schedule
static int next_stage(int stage, int stages)
{
    if (stage + 1 < stages)
        return stage + 1;
    return -1;
}
// end snippet

int main(void)
{
    // snippet: loop
    for (int s = 0; s >= 0; s = next_stage(s, 4))
        printf("stage %d\n", s);
    // end snippet
    return 0;
}
