/* A cribbage bot in C that speaks the bot protocol (version 1, docs/BOTS.md).
 *
 * It says hello, then answers every "act" request with one of its legal actions: the last one
 * in the play (its highest card id), the first one otherwise. Build and play it:
 *
 *     cc -O2 -o first_legal examples/bots/first_legal.c
 *     cribbage bench cmd:./first_legal random --games 20 --isolate
 *
 * One JSON object per line each way; stdout carries only protocol lines (flushed at once),
 * anything else goes to stderr (the host's log).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE 65536

/* The actions of the request's "legal" list; returns how many (at most max). */
static int legal_actions(const char *line, long *out, int max) {
    const char *p = strstr(line, "\"legal\":[");
    int n = 0;
    if (p == NULL) return 0;
    p += strlen("\"legal\":[");
    while (*p && *p != ']' && n < max) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p) break;
        out[n++] = v;
        p = end;
        while (*p == ',' || *p == ' ') p++;
    }
    return n;
}

int main(void) {
    static char line[LINE];
    long legal[64];
    printf("{\"bot\":\"c-first-legal\",\"protocol\":1}\n");
    fflush(stdout);
    while (fgets(line, sizeof line, stdin) != NULL) {
        if (strstr(line, "\"type\":\"act\"") == NULL) {
            printf("{\"error\":\"unknown request\"}\n");
        } else {
            int n = legal_actions(line, legal, 64);
            int in_play = strstr(line, "\"phase\":\"play\"") != NULL;
            if (n == 0) printf("{\"error\":\"no legal action in the request\"}\n");
            else printf("{\"action\":%ld}\n", in_play ? legal[n - 1] : legal[0]);
        }
        fflush(stdout);
    }
    return 0;
}
