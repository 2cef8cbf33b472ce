# SPDX-License-Identifier: Apache-2.0
# one model shared by worlds stepped in two threads, bit for bit as one thread; models loaded by
# several threads at once (sn_model.h: a loaded model is read-only). scripts/test.sh builds it
# alone with ThreadSanitizer (SN_SANITIZE_THREAD, build-tsan)
find_package(Threads REQUIRED)
sn_add_suite(test_threads)
target_link_libraries(test_threads PRIVATE Threads::Threads)
