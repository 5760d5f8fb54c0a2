/* chrono-op-models.h: FLOPs and bytes of one operator call, from its shapes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "chrono-device-peaks.h"

G_BEGIN_DECLS

typedef struct {
  gdouble     flops;
  gdouble     bytes;
  ChronoDtype dtype;      /* whose peak applies */
  gboolean    matrix;     /* matrix (tensor) units, else vector */
  const char *family;     /* "gemm", "convolution", "attention", … */
} ChronoOpCost;

/* The model for operator NAME ("aten::addmm"), or -1 when there is none. */
gint     chrono_op_model_find           (const char *name);
/* Whether the model needs the call's "Concrete Inputs" (strides,
 * is_causal): they then tell calls apart as shapes do. */
gboolean chrono_op_model_reads_concrete (gint model);
/* The cost of one call from the raw JSON text of its "Input Dims",
 * "Input type" and "Concrete Inputs" arrays (CONCRETE may be NULL);
 * shapes and types written as text, as torch_npu does, are read as the
 * arrays they stand for. FALSE when the shapes do not fit the model. */
gboolean chrono_op_model_cost           (gint          model,
                                         const char   *dims,
                                         gsize         dims_len,
                                         const char   *types,
                                         gsize         types_len,
                                         const char   *concrete,
                                         gsize         concrete_len,
                                         ChronoOpCost *cost);

/* The raw text of a call's "Input Dims", "Input type" and (when
 * WANT_CONCRETE) "Concrete Inputs" arrays. */
typedef struct {
  const char *dims;
  gsize       dims_len;
  const char *types;
  gsize       types_len;
  const char *concrete;       /* NULL when not wanted or not there */
  gsize       concrete_len;
} ChronoOpModelInputs;

/* Reads them from the args object at TEXT (AVAILABLE bytes to the end of
 * its source), member by member, stopping once they are found: FALSE
 * when the shapes or types are not there. LIKE, or NULL, holds inputs
 * read before that the call likely repeats: a value whose text begins
 * with the whole text of LIKE's ends where it does, unscanned. */
gboolean chrono_op_model_read_args      (const char                *text,
                                         gsize                      available,
                                         ChronoOpModelInputs       *inputs,
                                         gboolean                   want_concrete,
                                         const ChronoOpModelInputs *like);

/* Where the value of member KEY (unquoted) of the object at TEXT
 * (AVAILABLE bytes to the end of its source) starts, read member by
 * member up to it; NULL when the object has none. */
const char *chrono_op_model_find_member  (const char          *text,
                                         gsize                available,
                                         const char          *key);

G_END_DECLS
