/* chrono-json-reader.h: reading a JSON document that must hold members of
 * given types, with errors that say where
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef struct {
  const char *name;         /* the file, for messages */
  JsonParser *parser;
  JsonObject *root;
  char       *where;        /* the element being read: "collectives[3]" */
  GError     *error;        /* the first failure */
} ChronoJsonReader;

/* Parses DATA, whose root must be an object. */
gboolean    chrono_json_reader_init      (ChronoJsonReader *r,
                                          const char       *data,
                                          gssize            length,
                                          const char       *name,
                                          GError          **error);
void        chrono_json_reader_clear     (ChronoJsonReader *r);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ChronoJsonReader, chrono_json_reader_clear)

/* Records a failure at the current place; returns FALSE. */
gboolean    chrono_json_reader_fail      (ChronoJsonReader *r,
                                          const char       *format,
                                          ...) G_GNUC_PRINTF (2, 3);
/* Hands the first failure to ERROR. */
void        chrono_json_reader_propagate (ChronoJsonReader *r,
                                          GError          **error);

/* The array member KEY of O; NULL after a failure. */
JsonArray  *chrono_json_reader_array     (ChronoJsonReader *r,
                                          JsonObject       *o,
                                          const char       *key);
/* Element I of A, named ARRAY_NAME in messages, which must be an object;
 * it becomes the current place. */
JsonObject *chrono_json_reader_element   (ChronoJsonReader *r,
                                          JsonArray        *a,
                                          const char       *array_name,
                                          guint             i);
/* Members that must be integers, strings or N integers; when not
 * REQUIRED an absent member (or null) leaves OUT as it was. */
gboolean    chrono_json_reader_int       (ChronoJsonReader *r,
                                          JsonObject       *o,
                                          const char       *key,
                                          gboolean          required,
                                          gint64           *out);
gboolean    chrono_json_reader_string    (ChronoJsonReader *r,
                                          JsonObject       *o,
                                          const char       *key,
                                          gboolean          required,
                                          char            **out);
gboolean    chrono_json_reader_int_array (ChronoJsonReader *r,
                                          JsonObject       *o,
                                          const char       *key,
                                          gint64           *out,
                                          guint             n);
/* Likewise, where null stands for a missing value, read as MISSING. */
gboolean    chrono_json_reader_nullable_int_array (ChronoJsonReader *r,
                                                   JsonObject       *o,
                                                   const char       *key,
                                                   gint64           *out,
                                                   guint             n,
                                                   gint64            missing);

G_END_DECLS
