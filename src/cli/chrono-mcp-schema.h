/* chrono-mcp-schema.h: checking tool arguments against their JSON Schema
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Whether VALUE satisfies SCHEMA, for the keywords the tools' input
 * schemas use: type (one or a list), enum, minimum, maximum, minLength,
 * properties, required, additionalProperties (false), items, minItems,
 * maxItems. Any other keyword in SCHEMA is a programming error. The
 * message names the argument, what was expected and what came. */
gboolean chrono_mcp_schema_check (JsonNode    *schema,
                                  JsonNode    *value,
                                  const char  *where,
                                  GError     **error);

G_END_DECLS
