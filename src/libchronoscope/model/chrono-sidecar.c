/* chrono-sidecar.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <glib/gstdio.h>

#include "chrono-json-util.h"
#include "chrono-sidecar.h"

struct _ChronoSidecar
{
  GObject     parent_instance;

  char       *trace_path;   /* absolute */
  char       *path;
  gint64      trace_size;   /* -1 when the trace cannot be read */
  gint64      trace_mtime;  /* seconds */
  JsonObject *sections;
  gboolean    unreadable;   /* the file on disk could not be read: keep it */
};

G_DEFINE_FINAL_TYPE (ChronoSidecar, chrono_sidecar, G_TYPE_OBJECT)

G_DEFINE_QUARK (chrono-sidecar-error-quark, chrono_sidecar_error)

static void
chrono_sidecar_finalize (GObject *object)
{
  ChronoSidecar *self = CHRONO_SIDECAR (object);

  g_free (self->trace_path);
  g_free (self->path);
  g_clear_pointer (&self->sections, json_object_unref);

  G_OBJECT_CLASS (chrono_sidecar_parent_class)->finalize (object);
}

static void
chrono_sidecar_class_init (ChronoSidecarClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = chrono_sidecar_finalize;
}

static void
chrono_sidecar_init (ChronoSidecar *self)
{
  self->sections = json_object_new ();
}

ChronoSidecar *
chrono_sidecar_new (const char *trace_path,
                    const char *dir)
{
  ChronoSidecar *self;
  g_autofree char *basename = NULL;
  g_autofree char *hash = NULL;
  g_autofree char *name = NULL;
  g_autofree char *default_dir = NULL;
  GStatBuf st;

  g_return_val_if_fail (trace_path != NULL, NULL);

  self = g_object_new (CHRONO_TYPE_SIDECAR, NULL);
  self->trace_path = g_canonicalize_filename (trace_path, NULL);
  if (g_stat (self->trace_path, &st) == 0)
    {
      self->trace_size = st.st_size;
      self->trace_mtime = st.st_mtime;
    }
  else
    self->trace_size = -1;

  /* Keyed by the absolute path; the name keeps it findable by hand. */
  basename = g_path_get_basename (self->trace_path);
  hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, self->trace_path, -1);
  hash[16] = '\0';
  name = g_strdup_printf ("%s-%s.json", basename, hash);
  if (dir == NULL)
    dir = default_dir = g_build_filename (g_get_user_data_dir (), "chronoscope", "projects", NULL);
  self->path = g_build_filename (dir, name, NULL);
  return self;
}

const char *
chrono_sidecar_get_path (ChronoSidecar *self)
{
  g_return_val_if_fail (CHRONO_IS_SIDECAR (self), NULL);
  return self->path;
}

static gboolean
fail (ChronoSidecar *self,
      GError       **error,
      gint           code,
      const char    *what)
{
  self->unreadable = TRUE;
  g_set_error (error, CHRONO_SIDECAR_ERROR, code, "%s: %s", self->path, what);
  return FALSE;
}

gboolean
chrono_sidecar_load (ChronoSidecar  *self,
                     GError        **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) local_error = NULL;
  JsonObject *root, *trace, *sections;
  JsonNode *node;

  g_return_val_if_fail (CHRONO_IS_SIDECAR (self), FALSE);

  g_clear_pointer (&self->sections, json_object_unref);
  self->sections = json_object_new ();
  self->unreadable = FALSE;

  if (!json_parser_load_from_mapped_file (parser, self->path, &local_error))
    {
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        return TRUE;
      return fail (self, error, CHRONO_SIDECAR_ERROR_INVALID, local_error->message);
    }

  node = json_parser_get_root (parser);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return fail (self, error, CHRONO_SIDECAR_ERROR_INVALID, "expected a JSON object");
  root = json_node_get_object (node);
  node = json_object_get_member (root, "version");
  if (node == NULL || json_node_get_value_type (node) != G_TYPE_INT64)
    return fail (self, error, CHRONO_SIDECAR_ERROR_INVALID, "expected an integer “version”");
  if (json_node_get_int (node) != CHRONO_SIDECAR_VERSION)
    {
      g_autofree char *what = g_strdup_printf ("version %" G_GINT64_FORMAT " is not %d",
                                               json_node_get_int (node), CHRONO_SIDECAR_VERSION);

      return fail (self, error, CHRONO_SIDECAR_ERROR_VERSION, what);
    }
  node = json_object_get_member (root, "trace");
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return fail (self, error, CHRONO_SIDECAR_ERROR_INVALID, "expected a “trace” object");
  trace = json_node_get_object (node);
  node = json_object_get_member (root, "sections");
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return fail (self, error, CHRONO_SIDECAR_ERROR_INVALID, "expected a “sections” object");
  sections = json_node_get_object (node);

  /* A trace rewritten since would get state that no longer fits it. */
  if (json_object_get_int_member_with_default (trace, "size", -2) != self->trace_size ||
      json_object_get_int_member_with_default (trace, "mtime", -2) != self->trace_mtime)
    {
      g_message ("%s: written for an older version of %s; starting afresh",
                 self->path, self->trace_path);
      return TRUE;
    }

  json_object_unref (self->sections);
  self->sections = json_object_ref (sections);
  return TRUE;
}

JsonNode *
chrono_sidecar_get_section (ChronoSidecar *self,
                            const char    *name)
{
  g_return_val_if_fail (CHRONO_IS_SIDECAR (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  return json_object_get_member (self->sections, name);
}

void
chrono_sidecar_set_section (ChronoSidecar *self,
                            const char    *name,
                            JsonNode      *node)
{
  g_return_if_fail (CHRONO_IS_SIDECAR (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (node != NULL);

  json_object_set_member (self->sections, name, node);
}

gboolean
chrono_sidecar_save (ChronoSidecar  *self,
                     GError        **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *text = NULL;
  gsize length;

  g_return_val_if_fail (CHRONO_IS_SIDECAR (self), FALSE);

  dir = g_path_get_dirname (self->path);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   "%s: %s", dir, g_strerror (saved_errno));
      return FALSE;
    }

  /* Someone's state we could not read is set aside, never overwritten. */
  if (self->unreadable)
    {
      g_autofree char *backup = g_strconcat (self->path, ".bak", NULL);

      if (g_rename (self->path, backup) != 0 && errno != ENOENT)
        {
          int saved_errno = errno;

          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                       "%s: %s", backup, g_strerror (saved_errno));
          return FALSE;
        }
      self->unreadable = FALSE;
    }

  json_builder_begin_object (builder);
  chrono_json_add_int (builder, "version", CHRONO_SIDECAR_VERSION);
  json_builder_set_member_name (builder, "trace");
  json_builder_begin_object (builder);
  chrono_json_add_string (builder, "path", self->trace_path);
  chrono_json_add_int (builder, "size", self->trace_size);
  chrono_json_add_int (builder, "mtime", self->trace_mtime);
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "sections");
  json_builder_add_value (builder, json_node_init_object (json_node_alloc (), self->sections));
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, &length);
  return g_file_set_contents_full (self->path, text, length,
                                   G_FILE_SET_CONTENTS_CONSISTENT, 0600, error);
}
