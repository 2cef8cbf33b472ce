// SPDX-License-Identifier: Apache-2.0
// mesh.h: reading mesh files (internal; used when a model is compiled, by the MJCF reader for
// mesh inertia and by sn_world_add_mesh; the public indexed reader is sn_mesh_read)
#ifndef SNI_MESH_H
#define SNI_MESH_H

#include "base/base.h"
#include "sinew/sn_model.h"

#define SNI_MESH_MAX_BYTES ((size_t)256 << 20) // a mesh file larger than this is refused
#define SNI_MESH_MAX_VERTICES 1000000          // distinct vertices of one mesh

// 1 when the file name has an extension sinew reads (.obj, .stl, any case)
int sni_mesh_supported(const char* path);
// append the distinct vertices of the mesh file (scaled per axis) to out as sn_real triples.
// Errors: SN_ERR_IO (cannot open or read), SN_ERR_MODEL (a format sinew does not read),
// SN_ERR_PARSE (malformed; *line is the file's line for text formats, else 0), SN_ERR_LIMIT,
// SN_ERR_NOMEM; msg holds the message. On error out is left as it was.
sn_status sni_mesh_read(const char* path, const sn_real* scale, const sn_allocator* a, sni_buf* out,
                        int* line, char* msg, size_t len);

// append the triangles of the mesh file (scaled per axis) to out, 9 sn_real each (three corners
// in the file's order). Errors as sni_mesh_read
sn_status sni_mesh_read_triangles(const char* path, const sn_real* scale, const sn_allocator* a,
                                  sni_buf* out, int* line, char* msg, size_t len);

#endif
