// SPDX-License-Identifier: Apache-2.0
// test_contracts.c: the runner of the generated contract test (docs/contracts.md). Every case
// (one public function, one argument, one bad value) runs in a child process: a crash or a
// sanitizer report is a failure, so is a refusal that returns other than documented or leaves
// sn_last_error() empty, not naming the argument, or different from its object's last error.
#include "contract_fixture.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef _WIN32
#include <sys/wait.h>
#include <unistd.h>
#endif

cf_fixture F;

int cf_fail(const char* why) {
    fprintf(stderr, "    %s\n", why);
    return 1;
}

static int word_in(const char* text, const char* word) {
    size_t n = strlen(word);
    for (const char* p = strstr(text, word); p; p = strstr(p + 1, word)) {
        int before = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        int after = !(isalnum((unsigned char)p[n]) || p[n] == '_');
        if (before && after) return 1;
    }
    return 0;
}

int cf_check_message(const char* const* names) {
    const char* msg = sn_last_error();
    if (!msg || !msg[0]) return cf_fail("sn_last_error() is empty");
    for (int i = 0; names[i]; i++)
        if (word_in(msg, names[i])) return 0;
    fprintf(stderr, "    the message '%s' does not name the argument '%s'\n", msg, names[0]);
    return 1;
}

int cf_check_owner(int kind, const void* object) {
    const char* own = kind == 0   ? sn_world_last_error((const sn_world*)object)
                      : kind == 1 ? sn_world_last_error(F.w)
                      : kind == 2 ? sn_arm_last_error((const sn_arm*)object)
                                  : sn_maximal_last_error((const sn_maximal*)object);
    if (strcmp(own, sn_last_error()) != 0) {
        fprintf(stderr, "    the object's last error '%s' is not the thread's '%s'\n", own,
                sn_last_error());
        return 1;
    }
    return 0;
}

int cf_check_error_record(void) {
    if (!F.err.msg[0]) return cf_fail("the sn_error record is empty");
    if (F.err.code >= 0) return cf_fail("the sn_error record's code is not an error");
    return 0;
}

static char* read_text(const char* path) {
    FILE* f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char* t = malloc((size_t)n + 1);
    if (t && fread(t, 1, (size_t)n, f) != (size_t)n) {
        free(t);
        t = NULL;
    }
    if (t) t[n] = 0;
    fclose(f);
    return t;
}

static int fixture_open(void) {
    snprintf(F.path, sizeof F.path, "%s", contract_model_path);
    F.text = read_text(F.path);
    if (!F.text) return cf_fail("cannot read the fixture's model");
    // (a temporary file, removed by main when the calls are done)
    snprintf(F.mesh, sizeof F.mesh, "/tmp/sn_contract_tetra_XXXXXX.obj");
    int fd = mkstemps(F.mesh, 4);
    FILE* f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) return cf_fail("cannot write the fixture's mesh");
    fputs("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n", f);
    fclose(f);
    sn_error err;
    if (sn_load(F.path, NULL, &F.m, &err) != SN_OK) return cf_fail(err.msg);
    if (sn_world_create(NULL, &F.w, &err) != SN_OK) return cf_fail(err.msg);
    if (sn_world_add_system(F.w, F.m, &F.s, &err) != SN_OK) return cf_fail(err.msg);
    if (sn_data_create(F.m, NULL, &F.d, &err) != SN_OK) return cf_fail(err.msg);
    if (sn_arm_from_model(F.m, NULL, NULL, &F.arm, &err) != SN_OK) return cf_fail(err.msg);
    if (sn_maximal_create(NULL, &F.mx, &err) != SN_OK) return cf_fail(err.msg);
    if (sn_maximal_from_model(F.m, NULL, NULL, NULL, &F.mxm, &err) != SN_OK)
        return cf_fail(err.msg);
    sn_actuator_desc act = {0};
    act.joint = 0;
    act.gear = 1;
    if (sn_system_add_actuator(F.s, &act, NULL) != SN_OK) return cf_fail("sn_system_add_actuator");
    F.target.frame = 1;
    F.target.mask = SN_IK_POSITION;
    double I[6] = {1, 0, 0, 1, 0, 1};
    if (sn_maximal_add_body(F.mx, 1, I, NULL) != SN_OK) return cf_fail("sn_maximal_add_body");
    memcpy(F.inertia, I, sizeof I);
    for (int i = 0; i < 16; i++)
        F.ones[i] = 1;
    F.quat[0] = 1;
    F.eye[0] = F.eye[4] = F.eye[8] = 1;
    if (sn_world_integrate(F.w) != SN_OK) return cf_fail("the fixture's world does not step");
    return 0;
}

static int run_case(const cf_case* c) {
#ifdef _WIN32
    sn_clear_last_error();
    memset(&F.err, 0, sizeof F.err);
    return c->run();
#else
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) return cf_fail("fork failed");
    if (pid == 0) {
        sn_clear_last_error();
        memset(&F.err, 0, sizeof F.err);
        int r = c->run();
        fflush(stderr);
        _exit(r);
    }
    int status = 0;
    if (waitpid(pid, &status, 0) != pid) return cf_fail("waitpid failed");
    if (WIFSIGNALED(status)) {
        fprintf(stderr, "    crashed (signal %d)\n", WTERMSIG(status));
        return 1;
    }
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
#endif
}

int main(int argc, char** argv) {
    const char* filter = argc > 1 ? argv[1] : NULL;
    int failed = 0, passed = 0;
    for (int i = 0; contract_unknown_list[i]; i++) {
        fprintf(stderr, "UNCLASSIFIED %s: teach scripts/contract_calls.py its kind\n",
                contract_unknown_list[i]);
        failed++;
    }
    if (fixture_open()) return 1;
    for (int i = 0; contract_cases[i].function; i++) {
        const cf_case* c = &contract_cases[i];
        if (filter && !strstr(c->function, filter)) continue;
        if (run_case(c)) {
            fprintf(stderr, "FAIL %s(%s = %s)\n", c->function, c->argument, c->value);
            failed++;
        } else {
            passed++;
        }
    }
    unlink(F.mesh);
    printf("%d public functions, %d bad-argument calls: %d passed, %d failed\n",
           contract_function_count, passed + failed, passed, failed);
    return failed ? 1 : 0;
}
