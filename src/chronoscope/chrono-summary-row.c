/* chrono-summary-row.c: one row of the trace summary: a process or a track
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "chrono-format.h"
#include "chrono-summary-row.h"

struct _ChronoSummaryRow
{
  GObject     parent_instance;

  char       *name;
  char       *kind;
  char       *spans;
  char       *instants;
  char       *samples;
  GListModel *children;
};

G_DEFINE_FINAL_TYPE (ChronoSummaryRow, chrono_summary_row, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NAME,
  PROP_KIND,
  PROP_SPANS,
  PROP_INSTANTS,
  PROP_SAMPLES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
chrono_summary_row_finalize (GObject *object)
{
  ChronoSummaryRow *self = CHRONO_SUMMARY_ROW (object);

  g_free (self->name);
  g_free (self->kind);
  g_free (self->spans);
  g_free (self->instants);
  g_free (self->samples);
  g_clear_object (&self->children);

  G_OBJECT_CLASS (chrono_summary_row_parent_class)->finalize (object);
}

static void
chrono_summary_row_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  ChronoSummaryRow *self = CHRONO_SUMMARY_ROW (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_KIND:
      g_value_set_string (value, self->kind);
      break;
    case PROP_SPANS:
      g_value_set_string (value, self->spans);
      break;
    case PROP_INSTANTS:
      g_value_set_string (value, self->instants);
      break;
    case PROP_SAMPLES:
      g_value_set_string (value, self->samples);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
chrono_summary_row_class_init (ChronoSummaryRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = chrono_summary_row_finalize;
  object_class->get_property = chrono_summary_row_get_property;

  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_KIND] =
    g_param_spec_string ("kind", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SPANS] =
    g_param_spec_string ("spans", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_INSTANTS] =
    g_param_spec_string ("instants", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SAMPLES] =
    g_param_spec_string ("samples", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
chrono_summary_row_init (ChronoSummaryRow *self)
{
}

/* Zero shows as an empty cell, so the columns that matter stand out. */
static char *
count_text (guint64 count)
{
  return count ? chrono_format_count (count) : g_strdup ("");
}

/**
 * chrono_summary_row_new:
 * @children: (nullable): the rows below this one, for a process
 */
ChronoSummaryRow *
chrono_summary_row_new (const char *name,
                        const char *kind,
                        guint64     spans,
                        guint64     instants,
                        guint64     samples,
                        GListModel *children)
{
  ChronoSummaryRow *self = g_object_new (CHRONO_TYPE_SUMMARY_ROW, NULL);

  self->name = g_strdup (name);
  self->kind = g_strdup (kind);
  self->spans = count_text (spans);
  self->instants = count_text (instants);
  self->samples = count_text (samples);
  g_set_object (&self->children, children);
  return self;
}

/**
 * chrono_summary_row_get_children:
 *
 * Returns: (transfer none) (nullable): the track rows of a process row
 */
GListModel *
chrono_summary_row_get_children (ChronoSummaryRow *self)
{
  g_return_val_if_fail (CHRONO_IS_SUMMARY_ROW (self), NULL);
  return self->children;
}
