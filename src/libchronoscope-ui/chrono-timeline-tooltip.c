/* chrono-timeline-tooltip.c: the timeline's tooltips: names cut short in
 * the header column, spans, and the achieved TFLOP/s under the pointer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>
#include <math.h>

#include "chrono-flops-painter.h"
#include "chrono-memory-painter.h"
#include "chrono-neuron-lanes-painter.h"
#include "chrono-format.h"
#include "chrono-timeline-private.h"

/* Pinned tracks are far from their process: they name it too. */
static void
set_track_tooltip (ChronoTimeline *self,
                   GtkTooltip     *tooltip,
                   const Row      *row)
{
  const ChronoTrack *track = chrono_trace_get_track (self->trace, row->track);
  const char *name = chrono_trace_get_string (self->trace, track->display_name);
  g_autofree char *text = NULL;

  if (row->pinned)
    /* Translators: a pinned track's tooltip: the track, then its process */
    text = g_strdup_printf (_("%s\n%s"), name,
                            chrono_trace_get_string (self->trace,
                                                     chrono_trace_get_process (self->trace, row->process)->display_name));
  gtk_tooltip_set_text (tooltip, text != NULL ? text : name);
}

/* Each lane of a NeuronCore's utilisation row at X (the whole row when
 * X is negative). */
static void
set_neuron_tooltip (ChronoTimeline *self,
                    GtkTooltip     *tooltip,
                    const Row      *row,
                    double          x)
{
  ChronoNeuronLane lanes[CHRONO_NEURON_N_LANES];
  guint n = chrono_neuron_lanes_painter_get_lanes (row->neuron, lanes);
  g_autoptr(GString) text = g_string_new (NULL);

  if (x < 0)
    {
      gtk_tooltip_set_text (tooltip, _("How busy each engine and the DMA queues were, and the hardware FLOPs "
                                       "utilisation (HFU) against the core's peak, per pixel of time"));
      return;
    }
  for (guint k = 0; k < n; k++)
    {
      double v = chrono_neuron_lanes_painter_column (row->neuron, self->viewport, lanes[k], floor (x));

      /* Translators: a lane's share of the time under the pointer: "Tensor 62 %" */
      g_string_append_printf (text, _("%s%s %.0f %%"), k > 0 ? "\n" : "", chrono_neuron_lane_to_string (lanes[k]),
                              100 * (isnan (v) ? 0 : v));
    }
  gtk_tooltip_set_text (tooltip, text->str);
}

/* A device's memory at X (the whole row when X is negative). */
static void
set_memory_tooltip (ChronoTimeline *self,
                    GtkTooltip     *tooltip,
                    const Row      *row,
                    double          x)
{
  g_autofree char *markup = NULL;

  if (x < 0)
    /* Translators: the tooltip of a memory row's name */
    markup = g_markup_printf_escaped (_("<b>Memory of %s</b>\nBytes allocated and reserved over time, the peak marked"),
                                      row->memory->label);
  else
    markup = chrono_memory_painter_dup_tooltip (row->memory, self->trace, self->viewport, floor (x));
  gtk_tooltip_set_markup (tooltip, markup);
}

/* What the derived counter ROW shows at X in the track area (the whole
 * row when X is negative), against its device's peak. */
static void
set_flops_tooltip (ChronoTimeline *self,
                   GtkTooltip     *tooltip,
                   const Row      *row,
                   double          x)
{
  const char *device = chrono_trace_get_string (self->trace,
                                                chrono_trace_get_process (self->trace, row->process)->display_name);
  g_autofree char *rate = NULL;
  g_autofree char *peak = NULL;
  g_autofree char *width = NULL;
  g_autofree char *markup = NULL;
  double tflops;

  if (row->neuron != NULL)
    {
      set_neuron_tooltip (self, tooltip, row, x);
      return;
    }
  if (row->memory != NULL)
    {
      set_memory_tooltip (self, tooltip, row, x);
      return;
    }
  if (row->flops == NULL)
    {
      gtk_tooltip_set_text (tooltip, chrono_timeline_scene_get_flops_note (self->scene));
      return;
    }
  if (x < 0)
    {
      /* Translators: the tooltip of the achieved TFLOP/s counter's name */
      markup = g_markup_printf_escaped (_("<b>Achieved TFLOP/s of %s</b>\nThe modelled operators' FLOPs over the "
                                          "time of the device work they launched"), device);
      gtk_tooltip_set_markup (tooltip, markup);
      return;
    }
  tflops = chrono_flops_painter_column_tflops (row->flops, self->viewport, floor (x));
  rate = chrono_flops_painter_format (tflops);
  width = chrono_format_duration (MAX (1, chrono_viewport_x_to_time (self->viewport, floor (x) + 1) -
                                         chrono_viewport_x_to_time (self->viewport, floor (x))));
  if (tflops <= 0)
    /* Translators: the achieved TFLOP/s under the pointer, where none of
     * the modelled operators' work ran; the time one pixel spans */
    markup = g_markup_printf_escaped (_("<b>No modelled operator ran here</b>\nover %s at this zoom"), width);
  else if (row->flops->peak_tflops > 0)
    {
      peak = chrono_flops_painter_format (row->flops->peak_tflops);
      /* Translators: the achieved TFLOP/s under the pointer: the rate, its
       * share of the device's peak, the peak, the time one pixel spans */
      markup = g_markup_printf_escaped (_("<b>%s</b> · %.0f %% of the %s %s peak (%s)\nover %s at this zoom"), rate,
                                        100 * tflops / row->flops->peak_tflops,
                                        chrono_dtype_to_string (row->flops->peak_dtype),
                                        row->flops->peak_matrix ? _("matrix") : _("vector"), peak, width);
    }
  else
    markup = g_markup_printf_escaped (_("<b>%s</b> · the peak of %s is unknown\nover %s at this zoom"), rate,
                                      row->flops->device_name != NULL ? row->flops->device_name : device, width);
  gtk_tooltip_set_markup (tooltip, markup);
}

gboolean
_chrono_timeline_query_tooltip (GtkWidget  *widget,
                                int         x,
                                int         y,
                                gboolean    keyboard_tooltip,
                                GtkTooltip *tooltip)
{
  ChronoTimeline *self = CHRONO_TIMELINE (widget);
  const ChronoTrack *track;
  g_autofree char *duration = NULL;
  g_autofree char *markup = NULL;
  ChronoSpanRef span;

  /* Nothing over the track menu while it is open. */
  if (gtk_widget_get_visible (self->track_menu))
    return FALSE;
  /* Names cut short in the header column show whole here. */
  if (!keyboard_tooltip && self->trace != NULL && x < HEADER_WIDTH && y >= RULER_HEIGHT)
    {
      guint i = find_row_at (self, y);
      const Row *row;

      if (i == G_MAXUINT)
        return FALSE;
      row = get_row (self, i);
      if (row->track == NO_TRACK && row->process == NO_TRACK)
        return FALSE;
      if (row->derived)
        set_flops_tooltip (self, tooltip, row, -1);
      else if (row->track == NO_TRACK)
        gtk_tooltip_set_text (tooltip, chrono_trace_get_string (self->trace,
                                                                chrono_trace_get_process (self->trace, row->process)->display_name));
      else
        set_track_tooltip (self, tooltip, row);
      return TRUE;
    }

  /* A device's achieved TFLOP/s: the column under the pointer. */
  if (!keyboard_tooltip && self->trace != NULL && y >= RULER_HEIGHT)
    {
      guint i = find_row_at (self, y);

      if (i != G_MAXUINT && get_row (self, i)->derived)
        {
          set_flops_tooltip (self, tooltip, get_row (self, i), x - HEADER_WIDTH);
          return TRUE;
        }
    }

  if (keyboard_tooltip)
    {
      if (!self->has_selection)
        return FALSE;
      span = self->selection;
    }
  else if (!chrono_timeline_hit_test (self, x, y, &span))
    return FALSE;

  track = chrono_trace_get_track (self->trace, span.track);
  duration = chrono_format_duration (chrono_track_get_dur (track, span.index));
  /* Translators: a span's tooltip: its name, then its duration and kind */
  markup = g_markup_printf_escaped (_("<b>%s</b>\n%s · %s"),
                                    chrono_trace_get_string (self->trace, chrono_track_get_name (track, span.index)),
                                    duration,
                                    chrono_kind_to_string (track->kind[span.index]));
  gtk_tooltip_set_markup (tooltip, markup);
  return TRUE;
}

