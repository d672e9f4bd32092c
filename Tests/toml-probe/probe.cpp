// Parses generated texts with the toml++ that TOMLKit bundles, with its assertions on, each in a
// child process, and prints "<status>\t<hex of the text>" a line: 0 parsed, 1 a parse error,
// 99 an assertion (its line in toml.hpp on stderr), anything else a signal. run.sh compares the
// assertions with what KioskConfig/TOMLGuard.swift refuses.
//   probe exhaustive <max length>   every string over TOML's punctuation after seven contexts
//   probe random <count> <seed>     random strings of TOML tokens, up to 12 of them
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>
#define TOML_EXCEPTIONS 1
#define TOML_ASSERT(expr) do { if (!(expr)) { fprintf(stderr, "ASSERT %d %s\n", __LINE__, #expr); _exit(99); } } while (0)
#include "toml.hpp"

static int parse(const std::string& s) {
    pid_t p = fork();
    if (p == 0) {
        freopen("/dev/null", "w", stderr);
        try { auto t = toml::parse(std::string_view(s)); (void)t; } catch (const toml::parse_error&) { _exit(1); }
        _exit(0);
    }
    int status;
    waitpid(p, &status, 0);
    return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

static void report(const std::string& s) {
    printf("%d\t", parse(s));
    for (unsigned char c : s) printf("%02x", c);
    printf("\n");
}

int main(int argc, char** argv) {
    if (argc == 3 && !strcmp(argv[1], "exhaustive")) {
        const std::string alphabet = "[]{}=.,#\"'\n \ta1-+\r";
        for (std::string prefix : {"", "a=1\n", "[t]\n", "x = [\n", "x = \"\"\"\n", "b = {", "\xef\xbb\xbf"}) {
            std::vector<std::string> level = {""};
            for (int length = 1; length <= atoi(argv[2]); length++) {
                std::vector<std::string> next;
                for (auto& s : level) for (char c : alphabet) next.push_back(s + c);
                for (auto& s : next) report(prefix + s);
                level.swap(next);
            }
        }
    } else if (argc == 4 && !strcmp(argv[1], "random")) {
        const std::vector<std::string> tokens = {"[", "]", "[[", "]]", "{", "}", "=", ".", ",", "#", "\"", "'", "\"\"\"", "'''",
            "\n", " ", "\t", "a", "b", "1", "-", "+", "_", "\\", "\r", "\v", "\f", "\xe2\x80\xa8", "\xc2\x85", "\xc3\xa9",
            "\xc2\xa0", "inf", "nan", "1e5", "0x1", "true", "1979-05-27", "T07:32:00", "Z", ":", "x = ", "[t]\n", "a = [",
            "a = {", "\"s\"", "\x7f", "\x01", "\xef\xbb\xbf"};
        std::mt19937 random(atoi(argv[3]));
        for (int i = 0; i < atoi(argv[2]); i++) {
            std::string s;
            for (int k = 0, n = 1 + random() % 12; k < n; k++) s += tokens[random() % tokens.size()];
            report(s);
        }
    } else {
        fprintf(stderr, "usage: probe exhaustive <max length> | probe random <count> <seed>\n");
        return 2;
    }
}
