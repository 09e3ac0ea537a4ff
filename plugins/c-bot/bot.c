/* A tetrad bot in one C file with no library: it speaks the bot protocol (docs/protocol.md,
 * version 1) on stdin and stdout, and drops every piece where it enters. It shows that the
 * protocol alone is enough to write a bot, and measures the cost of a round trip.
 *
 * Build: cc -O2 -o bot bot.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Large enough for a start message with many big pieces; the host sends one line per
 * message, and only the beginning of an overlong one is kept (see read_line). */
static char line[1 << 20];

/* Reads one line into `line`. Returns 0 at the end of input. */
static int read_line(void) {
    if (!fgets(line, sizeof line, stdin)) {
        return 0;
    }
    if (!strchr(line, '\n')) {
        /* Drain the rest of an overlong line, so the next read starts a new message. */
        int c;
        while ((c = getchar()) != EOF && c != '\n') {
        }
    }
    return 1;
}

/* The position just after `"key":` in `from` (spaces allowed around the colon), or NULL. */
static const char *value_of(const char *from, const char *key) {
    size_t length = strlen(key);
    for (const char *at = strstr(from, "\""); at; at = strstr(at + 1, "\"")) {
        if (strncmp(at + 1, key, length) == 0 && at[length + 1] == '"') {
            const char *p = at + length + 2;
            while (*p == ' ' || *p == '\t') p++;
            if (*p != ':') continue;
            p++;
            while (*p == ' ' || *p == '\t') p++;
            return p;
        }
    }
    return NULL;
}

/* Whether the message's type is `type`. */
static int is_type(const char *type) {
    const char *value = value_of(line, "type");
    size_t length = strlen(type);
    return value && value[0] == '"' && strncmp(value + 1, type, length) == 0 && value[length + 1] == '"';
}

static void answer(const char *text) {
    fputs(text, stdout);
    fputc('\n', stdout);
    fflush(stdout);
}

int main(void) {
    while (read_line()) {
        if (is_type("hello")) {
            answer("{\"type\":\"info\",\"protocol\":1,\"name\":\"c-bot\",\"version\":\"0.1.0\","
                   "\"author\":\"tetrad\",\"description\":\"drops each piece where it enters\","
                   "\"answers\":\"placement\"}");
        } else if (is_type("start")) {
            answer("{\"type\":\"ready\"}");
        } else if (is_type("piece")) {
            /* Where the piece is now is always reachable: no turn, no shift, a drop. */
            const char *current = value_of(line, "current");
            if (current && *current != '{') current = NULL;
            const char *orientation = current ? value_of(current, "orientation") : NULL;
            const char *x = current ? value_of(current, "x") : NULL;
            if (!orientation || !x) {
                answer("{\"type\":\"error\",\"message\":\"a piece message without current\"}");
                continue;
            }
            printf("{\"type\":\"placement\",\"orientation\":%ld,\"column\":%ld,\"slide\":0}\n",
                   strtol(orientation, NULL, 10), strtol(x, NULL, 10));
            fflush(stdout);
        } else if (is_type("quit")) {
            break;
        }
        /* Other messages (later versions' additions) need no answer. */
    }
    return 0;
}
