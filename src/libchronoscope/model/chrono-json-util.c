/* chrono-json-util.c: small helpers for writing JSON with JsonBuilder
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>

#include "chrono-json-util.h"

void
chrono_json_add_int (JsonBuilder *builder,
                     const char  *name,
                     gint64       value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, value);
}

void
chrono_json_add_string (JsonBuilder *builder,
                        const char  *name,
                        const char  *value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_string_value (builder, value);
}

void
chrono_json_add_double (JsonBuilder *builder,
                        const char  *name,
                        gdouble      value)
{
  json_builder_set_member_name (builder, name);
  if (isfinite (value))
    json_builder_add_double_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

void
chrono_json_add_nullable_string (JsonBuilder *builder,
                                 const char  *name,
                                 const char  *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}
