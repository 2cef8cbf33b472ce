// SPDX-License-Identifier: Apache-2.0
// sn_base.h: export macro, version, the scalar type, status codes, the error record, the
// allocator interface and the log hook. Every other public header includes this one.
#ifndef SN_BASE_H
#define SN_BASE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(SN_SHARED) && defined(_WIN32)
#ifdef SN_BUILDING
#define SN_API __declspec(dllexport)
#else
#define SN_API __declspec(dllimport)
#endif
#elif defined(__GNUC__)
#define SN_API __attribute__((visibility("default")))
#else
#define SN_API
#endif

#define SN_VERSION_MAJOR 0
#define SN_VERSION_MINOR 1
#define SN_VERSION_PATCH 0
#define SN_VERSION_STRING "0.1.0"

/// The scalar of every computation: double.
typedef double sn_real;

/// An id that refers to nothing (no parent, name not found).
#define SN_NONE (-1)

/// Status of every fallible call. 0 is success; errors are negative.
typedef enum sn_status {
    SN_OK = 0,
    SN_ERR_ARG = -1,       ///< bad argument (null, wrong size, id out of range, non-finite)
    SN_ERR_NOMEM = -2,     ///< the allocator returned NULL, or a size limit was exceeded
    SN_ERR_PARSE = -3,     ///< malformed file: XML, number or attribute; err->line tells where
    SN_ERR_MODEL = -4,     ///< inconsistent model: topology, inertia, limits, constraints
    SN_ERR_SINGULAR = -5,  ///< a factorization failed
    SN_ERR_NONFINITE = -6, ///< NaN or Inf in state or result
    SN_ERR_IO = -7,        ///< the file cannot be read
    SN_ERR_LIMIT = -8,     ///< a size limit (file, depth, count, attribute length) was exceeded
    SN_ERR_UNREACHED = -9, ///< inverse kinematics: the targets were not reached (best q returned)
} sn_status;

/// The error record filled by loaders and creators. `file` and `line` say where in the input the
/// problem is (line 0 when not tied to a line), `element` names the XML element (and attribute),
/// and `msg` is the full human-readable message, which repeats file, line and element.
typedef struct sn_error {
    sn_status code;
    int line;
    char file[256];
    char element[96];
    char msg[768];
} sn_error;

/// Name of a status code ("SN_ERR_PARSE"...). Never NULL.
SN_API const char* sn_status_str(sn_status s);

/// Library version as "MAJOR.MINOR.PATCH".
SN_API const char* sn_version(void);

/// The message of the last refused call in the calling thread (docs/contracts.md): every public
/// call that refuses an argument writes it, naming the function, the argument and the reason, as
/// well as its object's own record (sn_world_last_error, sn_arm_last_error,
/// sn_maximal_last_error, an sn_error). A call on a NULL object has nowhere else to say why and
/// says it here. "" until the first refusal or after sn_clear_last_error; never NULL. A call that
/// succeeds leaves it as it was.
SN_API const char* sn_last_error(void);
/// Empty the calling thread's sn_last_error.
SN_API void sn_clear_last_error(void);

/// Custom allocator: per object, never global. `alloc` returns memory aligned to `align` or NULL;
/// `free` receives the size that was allocated. A NULL allocator pointer means libc.
typedef struct sn_allocator {
    void* (*alloc)(size_t size, size_t align, void* ctx);
    void (*free)(void* p, size_t size, void* ctx);
    void* ctx;
} sn_allocator;

/// Severity of a log message.
typedef enum sn_log_level { SN_LOG_INFO = 0, SN_LOG_WARNING = 1, SN_LOG_ERROR = 2 } sn_log_level;

/// Log hook: receives every warning of a load (with file, line and element in the text).
typedef void (*sn_log_fn)(sn_log_level level, const char* msg, void* ctx);

#ifdef __cplusplus
}
#endif
#endif
