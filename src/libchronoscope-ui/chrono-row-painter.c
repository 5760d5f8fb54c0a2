/* chrono-row-painter.c: the rows of a timeline scene, one at a time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>

#include "chrono-flops-painter.h"
#include "chrono-memory-painter.h"
#include "chrono-name-column.h"
#include "chrono-neuron-lanes-painter.h"
#include "chrono-row-painter.h"
#include "chrono-search-highlight.h"

#define HEADER_WIDTH   CHRONO_SCENE_HEADER_WIDTH
#define ROW_HEIGHT     CHRONO_SCENE_ROW_HEIGHT
#define TRACK_PAD      CHRONO_SCENE_TRACK_PAD
#define NO_TRACK       CHRONO_SCENE_NO_ROW
#define NOTE_INSET     8.0

/* What was painted for a row, by position in the rows. */
typedef struct
{
  GskRenderNode    *node;     /* what the painter made for the viewport; the
                               * busy strip of a collapsed header */
  gboolean          painted;  /* NODE is current, even when NULL */
  GskRenderNode    *highlight;    /* the search's layer over NODE */
  gboolean          highlighted;  /* HIGHLIGHT is current, even when NULL */
  double            top;      /* a derived counter's scale, as NODE draws it */
} RowPaint;

struct _ChronoRowPainter
{
  ChronoTrace          *trace;
  ChronoSceneRows      *rows;      /* the scene's */
  ChronoViewport       *viewport;
  ChronoTrackPainter   *painter;
  GArray               *paints;    /* RowPaint, as many as rows */
  const ChronoRowFrame *frame;     /* while a row is drawn */
};

static void
paint_clear (gpointer data)
{
  RowPaint *paint = data;

  g_clear_pointer (&paint->node, gsk_render_node_unref);
  g_clear_pointer (&paint->highlight, gsk_render_node_unref);
}

ChronoRowPainter *
chrono_row_painter_new (ChronoTrace     *trace,
                        ChronoSceneRows *rows,
                        ChronoViewport  *viewport)
{
  ChronoRowPainter *self = g_new0 (ChronoRowPainter, 1);

  self->trace = g_object_ref (trace);
  self->rows = rows;
  self->viewport = g_object_ref (viewport);
  self->painter = chrono_track_painter_new (trace);
  self->paints = g_array_new (FALSE, TRUE, sizeof (RowPaint));
  g_array_set_clear_func (self->paints, paint_clear);
  return self;
}

void
chrono_row_painter_free (ChronoRowPainter *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->paints);
  g_object_unref (self->painter);
  g_object_unref (self->viewport);
  g_object_unref (self->trace);
  g_free (self);
}

ChronoTrackPainter *
chrono_row_painter_get_track_painter (ChronoRowPainter *self)
{
  return self->painter;
}

void
chrono_row_painter_invalidate (ChronoRowPainter *self)
{
  g_array_set_size (self->paints, 0);
  g_array_set_size (self->paints, chrono_scene_rows_get_n (self->rows));
}

void
chrono_row_painter_invalidate_search (ChronoRowPainter *self)
{
  for (guint i = 0; i < self->paints->len; i++)
    {
      RowPaint *paint = &g_array_index (self->paints, RowPaint, i);

      g_clear_pointer (&paint->highlight, gsk_render_node_unref);
      paint->highlighted = FALSE;
    }
}

static const ChronoSceneRow *
get_row (ChronoRowPainter *self,
         guint             i)
{
  return chrono_scene_rows_get (self->rows, i);
}

static RowPaint *
get_paint (ChronoRowPainter *self,
           guint             i)
{
  return &g_array_index (self->paints, RowPaint, i);
}

/* The busy strip of a collapsed header, from its tracks' indexes. */
static GskRenderNode *
get_busy_node (ChronoRowPainter     *self,
               const ChronoSceneRow *row,
               RowPaint             *paint)
{
  g_autofree ChronoTrackIndex **indexes = NULL;

  if (paint->painted)
    return paint->node;

  indexes = g_new (ChronoTrackIndex *, MAX (row->n_members, 1));
  for (guint i = 0; i < row->n_members; i++)
    indexes[i] = chrono_scene_rows_get_index (self->rows, chrono_scene_rows_get_member (self->rows, row, i));
  paint->node = chrono_track_painter_paint_busy (self->painter, indexes, row->n_members, self->viewport,
                                                 row->height - 2 * TRACK_PAD);
  paint->painted = TRUE;
  return paint->node;
}

static GskRenderNode *
get_row_node (ChronoRowPainter     *self,
              const ChronoSceneRow *row,
              RowPaint             *paint)
{
  const ChronoTrack *track;

  if (paint->painted)
    return paint->node;

  track = chrono_trace_get_track (self->trace, row->track);
  if (track->type == CHRONO_TRACK_COUNTER)
    paint->node = chrono_track_painter_paint_counter (self->painter, row->index, self->viewport,
                                                      CHRONO_SCENE_COUNTER_HEIGHT);
  else if (track->n_spans == 0)
    paint->node = chrono_track_painter_paint_instants (self->painter, row->index, self->viewport,
                                                       CHRONO_SCENE_INSTANT_HEIGHT);
  else
    paint->node = chrono_track_painter_paint_spans (self->painter, row->index, self->viewport,
                                                    ROW_HEIGHT);
  paint->painted = TRUE;
  return paint->node;
}

static GskRenderNode *
get_row_highlight (ChronoRowPainter        *self,
                   const ChronoSceneRow    *row,
                   RowPaint                *paint)
{
  const ChronoTrack *track = chrono_trace_get_track (self->trace, row->track);

  if (paint->highlighted)
    return paint->highlight;

  /* Counters and instants have no names to find: they dim whole. */
  if (track->n_spans == 0)
    paint->highlight = gsk_color_node_new (&self->frame->colors->dim,
                                           &GRAPHENE_RECT_INIT (0, 0, chrono_viewport_get_width_px (self->viewport),
                                                                row->height - 2 * TRACK_PAD));
  else
    paint->highlight = chrono_search_highlight_paint (self->frame->search, row->index, self->viewport,
                                                      ROW_HEIGHT, &self->frame->colors->dim,
                                                      &self->frame->colors->match);
  paint->highlighted = TRUE;
  return paint->highlight;
}

/* A collapsed process's header, or the pinned tracks'. */
static void
snapshot_group_row (ChronoRowPainter *self,
                    GtkSnapshot      *snapshot,
                    guint             i)
{
  const ChronoSceneRow *r = get_row (self, i);
  double width = self->frame->width;
  GskRenderNode *node;
  gboolean current;

  /* The current track's process stands out while it is collapsed. */
  current = r->process != NO_TRACK && r->collapsed && self->frame->current_track != NO_TRACK &&
            chrono_scene_rows_get_own_row (self->rows, self->frame->current_track) == NO_TRACK &&
            chrono_trace_get_track (self->trace, self->frame->current_track)->process == r->process;
  chrono_name_column_snapshot_group (snapshot, self->frame->text, self->frame->colors, r, self->frame->badge,
                                     r->process == NO_TRACK ? NULL :
                                     chrono_trace_get_string (self->trace,
                                                              chrono_trace_get_process (self->trace, r->process)->display_name),
                                     current, width);
  if (r->collapsed && (node = get_busy_node (self, r, get_paint (self, i))) != NULL)
    {
      gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (HEADER_WIDTH, r->y,
                                                             width - HEADER_WIDTH, r->height));
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (HEADER_WIDTH, r->y + TRACK_PAD));
      gtk_snapshot_append_node (snapshot, node);
      gtk_snapshot_restore (snapshot);
      gtk_snapshot_pop (snapshot);
    }
}

/* A NeuronCore's lanes, each named at its left. */
static void
snapshot_neuron_row (ChronoRowPainter *self,
                     GtkSnapshot      *snapshot,
                     guint             i)
{
  const ChronoRowFrame *f = self->frame;
  const ChronoSceneRow *r = get_row (self, i);
  RowPaint *paint = get_paint (self, i);
  ChronoNeuronLane lanes[CHRONO_NEURON_N_LANES];
  guint n = chrono_neuron_lanes_painter_get_lanes (r->neuron, lanes);
  double top = r->y + TRACK_PAD;

  chrono_name_column_snapshot_track (snapshot, f->text, f->colors, r, f->badge, _("Utilisation"), FALSE,
                                     MAX (r->y, f->name_top), f->width);
  if (!paint->painted)
    {
      paint->node = chrono_neuron_lanes_painter_paint (r->neuron, self->viewport, f->dark, f->vector);
      paint->painted = TRUE;
    }
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (HEADER_WIDTH, r->y, f->width - HEADER_WIDTH, r->height));
  if (paint->node != NULL)
    {
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (HEADER_WIDTH, top));
      gtk_snapshot_append_node (snapshot, paint->node);
      gtk_snapshot_restore (snapshot);
    }
  gtk_snapshot_pop (snapshot);
  /* Each lane named at the right of the name column, clear of its bars. */
  for (guint k = 0; k < n; k++)
    {
      const char *name = chrono_neuron_lane_to_string (lanes[k]);

      chrono_text_cache_append (f->text, snapshot, name, HEADER_WIDTH - chrono_text_cache_measure (f->text, name) - NOTE_INSET,
                                top + k * CHRONO_NEURON_LANE_HEIGHT, 0, CHRONO_NEURON_LANE_HEIGHT, &f->colors->dim_text);
    }
}

/* A device's achieved TFLOP/s or its memory under its tracks, or why
 * there is no TFLOP/s. */
static void
snapshot_derived_row (ChronoRowPainter *self,
                      GtkSnapshot      *snapshot,
                      guint             i)
{
  const ChronoRowFrame *f = self->frame;
  const ChronoSceneRow *r = get_row (self, i);
  RowPaint *paint = get_paint (self, i);
  double width = f->width;

  if (r->neuron != NULL)
    {
      snapshot_neuron_row (self, snapshot, i);
      return;
    }
  if (r->memory != NULL)
    {
      /* Translators: the name of a memory counter row: "Memory cuda:0". */
      g_autofree char *name = g_strdup_printf (_("Memory %s"), r->memory->label);

      chrono_name_column_snapshot_track (snapshot, f->text, f->colors, r, f->badge, name, FALSE,
                                         MAX (r->y, f->name_top), width);
    }
  else
    {
      chrono_name_column_snapshot_track (snapshot, f->text, f->colors, r, f->badge, _("Achieved TFLOP/s"), FALSE,
                                         MAX (r->y, f->name_top), width);
      if (r->flops == NULL)
        {
          chrono_text_cache_append (f->text, snapshot, f->flops_note, HEADER_WIDTH + NOTE_INSET, r->y + TRACK_PAD,
                                    width - HEADER_WIDTH - 2 * NOTE_INSET, ROW_HEIGHT, &f->colors->dim_text);
          return;
        }
    }
  if (!paint->painted)
    {
      if (r->memory != NULL)
        paint->node = chrono_memory_painter_paint (r->memory, self->viewport, CHRONO_SCENE_MEMORY_HEIGHT, f->dark,
                                                   f->vector, &paint->top);
      else
        paint->node = chrono_flops_painter_paint (r->flops, self->viewport, CHRONO_SCENE_FLOPS_HEIGHT, f->dark,
                                                  f->vector, &paint->top);
      paint->painted = TRUE;
    }
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (HEADER_WIDTH, r->y, width - HEADER_WIDTH, r->height));
  if (paint->node != NULL)
    {
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (HEADER_WIDTH, r->y + TRACK_PAD));
      gtk_snapshot_append_node (snapshot, paint->node);
      gtk_snapshot_restore (snapshot);
    }
  if (r->memory != NULL)
    chrono_memory_painter_snapshot_axis (snapshot, f->text, f->colors, r->memory, self->viewport, HEADER_WIDTH,
                                         r->y + TRACK_PAD, width - HEADER_WIDTH, CHRONO_SCENE_MEMORY_HEIGHT, paint->top);
  else
    chrono_flops_painter_snapshot_axis (snapshot, f->text, f->colors, r->flops, HEADER_WIDTH, r->y + TRACK_PAD,
                                        width - HEADER_WIDTH, CHRONO_SCENE_FLOPS_HEIGHT, paint->top);
  gtk_snapshot_pop (snapshot);
}

void
chrono_row_painter_snapshot (ChronoRowPainter     *self,
                             GtkSnapshot          *snapshot,
                             const ChronoRowFrame *frame,
                             guint                 i)
{
  const ChronoSceneRow *r = get_row (self, i);
  RowPaint *paint = get_paint (self, i);
  double width = frame->width;
  const ChronoTrack *track;
  GskRenderNode *node;
  double name_y;

  self->frame = frame;
  if (r->derived)
    {
      snapshot_derived_row (self, snapshot, i);
      return;
    }
  if (r->track == NO_TRACK)
    {
      snapshot_group_row (self, snapshot, i);
      return;
    }

  track = chrono_trace_get_track (self->trace, r->track);
  /* The name stays in view while a tall track scrolls under the top. */
  name_y = r->pinned ? r->y : MAX (r->y, self->frame->name_top);
  chrono_name_column_snapshot_track (snapshot, self->frame->text, self->frame->colors, r, self->frame->badge,
                                     chrono_trace_get_string (self->trace, track->display_name),
                                     r->track == self->frame->current_track, name_y, width);

  node = get_row_node (self, r, paint);
  if (node == NULL)
    return;
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (HEADER_WIDTH, r->y,
                                                         width - HEADER_WIDTH, r->height));
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (HEADER_WIDTH, r->y + TRACK_PAD));
  gtk_snapshot_append_node (snapshot, node);
  if (self->frame->search != NULL && (node = get_row_highlight (self, r, paint)) != NULL)
    gtk_snapshot_append_node (snapshot, node);
  gtk_snapshot_restore (snapshot);
  gtk_snapshot_pop (snapshot);
}

