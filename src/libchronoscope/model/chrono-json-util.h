/* chrono-json-util.h: small helpers for writing JSON with JsonBuilder
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* A member of the object being built: its name, then its value. */
void chrono_json_add_int    (JsonBuilder *builder,
                             const char  *name,
                             gint64       value);
void chrono_json_add_string (JsonBuilder *builder,
                             const char  *name,
                             const char  *value);

/* A number, null when it is not finite (NAN for unknown). */
void chrono_json_add_double (JsonBuilder *builder,
                             const char  *name,
                             gdouble      value);
/* A string, null for NULL. */
void chrono_json_add_nullable_string (JsonBuilder *builder,
                                      const char  *name,
                                      const char  *value);

G_END_DECLS
