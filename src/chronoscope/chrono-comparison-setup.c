/* chrono-comparison-setup.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "chrono-comparison-setup.h"

/* The section of the project file. */
#define SECTION "comparison"

G_DEFINE_BOXED_TYPE (ChronoComparisonSetup, chrono_comparison_setup,
                     chrono_comparison_setup_copy, chrono_comparison_setup_free)

static const struct {
  const char        *name;
  ChronoCompareAlign align;
} aligns[] = {
  { "auto", CHRONO_COMPARE_ALIGN_AUTO },
  { "step", CHRONO_COMPARE_ALIGN_STEP },
  { "marker", CHRONO_COMPARE_ALIGN_MARKER },
  { "start", CHRONO_COMPARE_ALIGN_START },
};

ChronoComparisonSetup *
chrono_comparison_setup_new (const char                 *path_b,
                             const ChronoCompareOptions *options,
                             gboolean                    stretch)
{
  ChronoComparisonSetup *self;

  g_return_val_if_fail (path_b != NULL, NULL);

  self = g_new0 (ChronoComparisonSetup, 1);
  self->path_b = g_strdup (path_b);
  if (options != NULL)
    self->options = *options;
  else
    chrono_compare_options_init (&self->options);
  self->marker = g_strdup (self->options.marker);
  self->options.marker = self->marker;
  self->stretch = !!stretch;
  return self;
}

ChronoComparisonSetup *
chrono_comparison_setup_copy (const ChronoComparisonSetup *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return chrono_comparison_setup_new (self->path_b, &self->options, self->stretch);
}

void
chrono_comparison_setup_free (ChronoComparisonSetup *self)
{
  if (self == NULL)
    return;
  g_free (self->path_b);
  g_free (self->marker);
  g_free (self);
}

JsonNode *
chrono_comparison_setup_to_json (const ChronoComparisonSetup *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (self != NULL, NULL);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "b");
  json_builder_add_string_value (builder, self->path_b);
  json_builder_set_member_name (builder, "align");
  for (guint i = 0; i < G_N_ELEMENTS (aligns); i++)
    if (aligns[i].align == self->options.align)
      json_builder_add_string_value (builder, aligns[i].name);
  if (self->options.align == CHRONO_COMPARE_ALIGN_MARKER)
    {
      json_builder_set_member_name (builder, "marker");
      json_builder_add_string_value (builder, self->marker);
    }
  if (self->options.has_steps)
    {
      json_builder_set_member_name (builder, "steps");
      json_builder_begin_array (builder);
      json_builder_add_int_value (builder, self->options.first_step);
      json_builder_add_int_value (builder, self->options.last_step);
      json_builder_end_array (builder);
    }
  json_builder_set_member_name (builder, "stretch");
  json_builder_add_boolean_value (builder, self->stretch);
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

static gpointer
invalid (GError    **error,
         const char *what)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("the comparison section: %s"), what);
  return NULL;
}

static gboolean
is_string (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING;
}

ChronoComparisonSetup *
chrono_comparison_setup_new_from_json (JsonNode  *node,
                                       GError   **error)
{
  ChronoCompareOptions options;
  JsonObject *object;
  JsonNode *member;
  const char *align;
  gboolean known = FALSE;

  g_return_val_if_fail (node != NULL, NULL);

  chrono_compare_options_init (&options);
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return invalid (error, _("expected an object"));
  object = json_node_get_object (node);
  if (!is_string (member = json_object_get_member (object, "b")) || !g_path_is_absolute (json_node_get_string (member)))
    return invalid (error, _("“b” must be the absolute path of the other trace"));
  align = json_object_get_string_member_with_default (object, "align", "auto");
  for (guint i = 0; i < G_N_ELEMENTS (aligns); i++)
    if (g_strcmp0 (align, aligns[i].name) == 0)
      {
        options.align = aligns[i].align;
        known = TRUE;
      }
  if (!known)
    return invalid (error, _("“align” must be auto, step, marker or start"));
  if (options.align == CHRONO_COMPARE_ALIGN_MARKER)
    {
      options.marker = json_object_get_string_member_with_default (object, "marker", NULL);
      if (options.marker == NULL || *options.marker == '\0')
        return invalid (error, _("marker alignment needs a “marker” name"));
    }
  if ((member = json_object_get_member (object, "steps")) != NULL)
    {
      JsonArray *steps = JSON_NODE_HOLDS_ARRAY (member) ? json_node_get_array (member) : NULL;

      if (steps == NULL || json_array_get_length (steps) != 2 ||
          json_array_get_int_element (steps, 0) > json_array_get_int_element (steps, 1))
        return invalid (error, _("“steps” must be [first, last]"));
      options.has_steps = TRUE;
      options.first_step = json_array_get_int_element (steps, 0);
      options.last_step = json_array_get_int_element (steps, 1);
    }
  return chrono_comparison_setup_new (json_node_get_string (json_object_get_member (object, "b")), &options,
                                      json_object_get_boolean_member_with_default (object, "stretch", FALSE));
}

ChronoComparisonSetup *
chrono_comparison_setup_load (ChronoSidecar  *sidecar,
                              GError        **error)
{
  JsonNode *section;

  g_return_val_if_fail (CHRONO_IS_SIDECAR (sidecar), NULL);

  /* A closed comparison leaves null. */
  section = chrono_sidecar_get_section (sidecar, SECTION);
  if (section == NULL || JSON_NODE_HOLDS_NULL (section))
    return NULL;
  return chrono_comparison_setup_new_from_json (section, error);
}

gboolean
chrono_comparison_setup_save (const ChronoComparisonSetup *self,
                              ChronoSidecar               *sidecar,
                              GError                     **error)
{
  g_return_val_if_fail (CHRONO_IS_SIDECAR (sidecar), FALSE);

  chrono_sidecar_set_section (sidecar, SECTION,
                              self != NULL ? chrono_comparison_setup_to_json (self) : json_node_new (JSON_NODE_NULL));
  return chrono_sidecar_save (sidecar, error);
}
