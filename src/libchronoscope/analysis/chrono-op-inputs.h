/* chrono-op-inputs.h: an operator's shapes and types written as text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* torch_npu writes a call's "Input Dims" and "Input type" as one string
 * each, an input per ";"-separated item, with line breaks between
 * ("32,1000;\r\n1000,4096" and "float;\r\nfloat"), where Kineto writes
 * arrays. VALUE (LEN bytes) is the raw JSON text of such a member: when
 * it is a string, returns it as Kineto writes it, without white space
 * ([[32,1000],[1000,4096]] for shapes, SHAPES; ["float","float"] for
 * types); NULL when it is not a string, or for SHAPES when an item is not
 * integers separated by commas. An empty item is an input without
 * dimensions: a scalar, a list, None. */
char *chrono_op_inputs_from_text (const char *value,
                                  gsize       len,
                                  gboolean    shapes);
/* VALUE as Kineto writes it: chrono_op_inputs_from_text()'s array when it
 * is text, else a copy. */
char *chrono_op_inputs_dup       (const char *value,
                                  gsize       len,
                                  gboolean    shapes);

G_END_DECLS
