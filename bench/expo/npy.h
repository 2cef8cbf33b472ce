// SPDX-License-Identifier: Apache-2.0
// npy.h: readers of numpy's .npy files and of .npz archives (the scenario data of the Expo
// paper, ../shared/models/consim_expo/references). No dependency beyond libc.
//
// .npy: the magic "\x93NUMPY", a version (1.0, 2.0 or 3.0), a header length (2 bytes in 1.0, 4
// in 2.0 and 3.0) and a Python dict literal {'descr': ..., 'fortran_order': ..., 'shape': (...)}
// padded with spaces and a newline; then the array. Read: little-endian float64 ('<f8') and
// fixed-width unicode strings ('<Un', UTF-32LE, kept as ASCII: another code point is an error),
// C order only. .npz: a zip archive of .npy members, as numpy's savez writes it: stored, not
// compressed (savez_compressed's deflated members are refused by name), the central directory
// read from the end-of-directory record, zip64 sizes and offsets taken from the extra field,
// every member's CRC-32 checked.
//
// Every function returns 0 or -1; on -1 err holds "FILE: reason" (FILE the path, or
// "ARCHIVE:MEMBER") and nothing is left allocated. None crashes on any input.
#ifndef EXPO_NPY_H
#define EXPO_NPY_H

#include <stddef.h>

#define EXPO_NPY_MAXDIM 8
#define EXPO_ERR_LEN 512

/// One array read from a .npy file or an .npz member.
typedef struct expo_array {
    int ndim;                    ///< 0 for a scalar
    long shape[EXPO_NPY_MAXDIM]; ///< extents, C order (last index fastest)
    long size;                   ///< product of the extents (1 for a scalar)
    double* data;                ///< '<f8': size values; NULL for strings       (size)
    int str_width;               ///< '<Un': n characters per string; 0 for numbers
    char* str;                   ///< '<Un': size strings of str_width + 1 bytes, NUL-terminated
} expo_array;

/// Free an array's storage and zero it. NULL or a zeroed array is a no-op.
void expo_array_free(expo_array* a);

/// Parse a whole .npy image of len bytes; name is used in messages.
int expo_npy_parse(const unsigned char* buf, size_t len, const char* name, expo_array* out,
                   char err[EXPO_ERR_LEN]);

/// Read a .npy file.
int expo_npy_read(const char* path, expo_array* out, char err[EXPO_ERR_LEN]);

/// One stored member of an archive.
typedef struct expo_npz_member {
    char name[128];     ///< file name in the archive ("com.npy")
    size_t data_offset; ///< start of its bytes in the archive image
    size_t size;        ///< its bytes
    unsigned crc;       ///< CRC-32 from the central directory
} expo_npz_member;

/// An .npz archive read into memory, with its member list.
typedef struct expo_npz {
    char path[256];
    unsigned char* buf;
    size_t len;
    int nmember;
    expo_npz_member* member; ///< (nmember)
} expo_npz;

/// Read an archive and its central directory (every member must be stored, else an error names
/// the member and its compression method).
int expo_npz_open(const char* path, expo_npz* z, char err[EXPO_ERR_LEN]);
/// The member `name` ("com" or "com.npy") as an array; its CRC-32 is checked first.
int expo_npz_get(const expo_npz* z, const char* name, expo_array* out, char err[EXPO_ERR_LEN]);
/// Free an archive and zero it. NULL or a zeroed archive is a no-op.
void expo_npz_close(expo_npz* z);

/// Read a float64 array and check its shape: want[i] < 0 accepts any extent. -1 with a message
/// naming the shape found and the one expected on a mismatch.
int expo_array_expect(const expo_array* a, const char* name, int ndim, const long* want,
                      char err[EXPO_ERR_LEN]);

/// CRC-32 (IEEE 802.3, as zip uses) of n bytes.
unsigned expo_crc32(const unsigned char* p, size_t n);

#endif
