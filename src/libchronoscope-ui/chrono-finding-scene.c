/* chrono-finding-scene.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>

#include "chrono-annotations.h"
#include "chrono-efficiency.h"
#include "chrono-finding-scene.h"
#include "chrono-format.h"
#include "chrono-track-keys.h"

/* Spans marked at most: past this the marks would hide the spans. */
#define MAX_EVIDENCE 4096
/* The frame's context each side, as a share of what it shows: little
 * around spans, whose extent is the point; a gap alone gets its own
 * length each side, so the work before and after it shows. */
#define EVIDENCE_PAD 0.1
#define GAP_PAD      1.0
/* The colour of the note, which the marks share. */
#define NOTE_COLOR   0xc01c28ff

/* The rules whose evidence is the spans of a kind on their tracks. */
static const struct {
  const char *rule;
  guint32     kinds;
} kind_rules[] = {
  { "collective-outlier", 1u << CHRONO_KIND_COLLECTIVE },
  { "collective-straggler", 1u << CHRONO_KIND_COLLECTIVE },
  { "exposed-communication", 1u << CHRONO_KIND_COLLECTIVE },
  { "neuron-collective-wait", 1u << CHRONO_KIND_COLLECTIVE },
  { "exposed-copies", (1u << CHRONO_KIND_MEMCPY) | (1u << CHRONO_KIND_MEMSET) | (1u << CHRONO_KIND_DMA) },
  { "small-copies", (1u << CHRONO_KIND_MEMCPY) | (1u << CHRONO_KIND_DMA) },
  { "sync-memcpy", 1u << CHRONO_KIND_MEMCPY },
  { "launch-bound", 1u << CHRONO_KIND_KERNEL },
};

static void
add_span (GArray *spans,
          guint   track,
          guint32 index)
{
  ChronoSpanRef ref = { track, index };

  if (spans->len < MAX_EVIDENCE)
    g_array_append_val (spans, ref);
}

/* The operator the finding is about, known by the device work it spans. */
static const ChronoEfficiencyRow *
find_efficiency_row (ChronoAnalysis      *analysis,
                     const ChronoFinding *finding)
{
  if (!g_str_equal (finding->rule, "low-efficiency"))
    return NULL;
  for (guint i = 0; i < chrono_analysis_get_n_efficiency (analysis); i++)
    {
      const ChronoEfficiencyRow *r = chrono_analysis_get_efficiency (analysis, i);

      if (r->rank == finding->rank && r->n_intervals > 0 && r->intervals[0].start_ns == finding->start_ns &&
          r->intervals[r->n_intervals - 1].end_ns == finding->end_ns)
        return r;
    }
  return NULL;
}

/* The calls, and the device spans of the finding's tracks that lie in
 * their device work. */
static void
add_operator (ChronoTrace               *trace,
              const ChronoFinding       *finding,
              const ChronoEfficiencyRow *row,
              GArray                    *spans)
{
  for (guint i = 0; i < row->n_calls; i++)
    add_span (spans, row->calls[i].track, row->calls[i].index);
  for (guint i = 0; i < finding->n_tracks; i++)
    {
      const ChronoTrack *track;
      guint k = 0;

      if (finding->tracks[i].trace != row->trace)
        continue;
      track = chrono_trace_get_track (trace, finding->tracks[i].track);
      if (track->type != CHRONO_TRACK_STREAM)
        continue;
      for (guint32 s = 0; s < track->n_spans && k < row->n_intervals; s++)
        {
          while (k < row->n_intervals && row->intervals[k].end_ns <= track->start[s])
            k++;
          if (k < row->n_intervals && track->start[s] >= row->intervals[k].start_ns &&
              chrono_track_get_end (track, s) <= row->intervals[k].end_ns)
            add_span (spans, finding->tracks[i].track, s);
        }
    }
}

/* The spans on TRACK in the finding's range that MATCH, of NAME when it
 * is not G_MAXUINT32, else of the KINDS. */
static void
add_matching (ChronoTrace         *trace,
              const ChronoFinding *finding,
              guint                track_index,
              guint32              name,
              guint32              kinds,
              GArray              *spans)
{
  const ChronoTrack *track = chrono_trace_get_track (trace, track_index);

  for (guint32 s = 0; s < track->n_spans; s++)
    {
      if (track->start[s] >= finding->end_ns || chrono_track_get_end (track, s) <= finding->start_ns)
        continue;
      if (name != G_MAXUINT32 ? chrono_track_get_name (track, s) == name : (kinds & (1u << track->kind[s])) != 0)
        add_span (spans, track_index, s);
    }
}

guint32
chrono_finding_get_trace (const ChronoFinding *finding)
{
  return finding->n_tracks > 0 ? finding->tracks[0].trace : finding->has_node ? finding->node.trace : 0;
}

GArray *
chrono_finding_dup_evidence (ChronoAnalysis      *analysis,
                             const ChronoFinding *finding,
                             guint32             *trace_index)
{
  guint32 t = chrono_finding_get_trace (finding);
  ChronoTrace *trace = chrono_analysis_get_trace (analysis, t);
  GArray *spans = g_array_new (FALSE, FALSE, sizeof (ChronoSpanRef));
  const ChronoEfficiencyRow *row = find_efficiency_row (analysis, finding);

  *trace_index = t;
  if (row != NULL && row->trace == t)
    {
      add_operator (trace, finding, row, spans);
      return spans;
    }
  if (finding->has_node && finding->node.trace == t)
    {
      const ChronoTrack *track = chrono_trace_get_track (trace, finding->node.span.track);

      add_span (spans, finding->node.span.track, finding->node.span.index);
      add_matching (trace, finding, finding->node.span.track,
                    chrono_track_get_name (track, finding->node.span.index), 0, spans);
    }
  for (guint r = 0; r < G_N_ELEMENTS (kind_rules); r++)
    if (g_str_equal (finding->rule, kind_rules[r].rule))
      for (guint i = 0; i < finding->n_tracks; i++)
        if (finding->tracks[i].trace == t)
          add_matching (trace, finding, finding->tracks[i].track, G_MAXUINT32, kind_rules[r].kinds, spans);
  return spans;
}

/* Only TRACKS shown of their processes, the other processes collapsed;
 * the tracks of EVIDENCE expanded, so no span of it is folded away. */
static void
lay_out (ChronoTrace       *trace,
         ChronoTrackLayout *layout,
         const gboolean    *matters,
         GArray            *evidence)
{
  guint n_processes = chrono_trace_get_n_processes (trace);
  g_autofree gboolean *process_matters = g_new0 (gboolean, n_processes);

  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    if (matters[t])
      process_matters[chrono_trace_get_track (trace, t)->process] = TRUE;
  for (guint t = 0; t < chrono_trace_get_n_tracks (trace); t++)
    chrono_track_layout_set_hidden (layout, t, !matters[t] &&
                                               process_matters[chrono_trace_get_track (trace, t)->process]);
  for (guint p = 0; p < n_processes; p++)
    chrono_track_layout_set_collapsed (layout, p, !process_matters[p]);
  for (guint i = 0; i < evidence->len; i++)
    chrono_track_layout_set_expanded (layout, g_array_index (evidence, ChronoSpanRef, i).track, TRUE);
}

/* "2.198 ms lost" over the finding's range and tracks. */
static ChronoAnnotations *
make_note (ChronoTrace         *trace,
           const ChronoFinding *finding,
           guint32              t,
           gint64               end)
{
  ChronoAnnotations *notes = chrono_annotations_new ();
  g_auto(GStrv) track_keys = chrono_track_keys_new (trace);
  g_autoptr(GStrvBuilder) keys = g_strv_builder_new ();
  g_auto(GStrv) area_keys = NULL;
  g_autofree char *lost = chrono_format_duration (finding->time_lost_ns);
  g_autofree char *text = NULL;
  ChronoAnnotation note = { .kind = CHRONO_ANNOTATION_NOTE, .anchor = CHRONO_ANCHOR_AREA,
                            .start_ns = finding->start_ns, .end_ns = end, .color = NOTE_COLOR };

  for (guint i = 0; i < finding->n_tracks; i++)
    if (finding->tracks[i].trace == t)
      g_strv_builder_add (keys, track_keys[finding->tracks[i].track]);
  area_keys = g_strv_builder_end (keys);
  /* Translators: a finding's note in its picture: the time it costs */
  text = g_strdup_printf (_("%s lost"), lost);
  note.text = text;
  note.tracks = area_keys;
  chrono_annotations_add (notes, &note);
  return notes;
}

ChronoTimelineScene *
chrono_finding_scene_new (ChronoAnalysis      *analysis,
                          const ChronoFinding *finding,
                          GPtrArray           *indexes,
                          int                  width,
                          gboolean             dark)
{
  guint32 t;
  g_autoptr(GArray) evidence = chrono_finding_dup_evidence (analysis, finding, &t);
  ChronoTrace *trace = chrono_analysis_get_trace (analysis, t);
  guint n_tracks = chrono_trace_get_n_tracks (trace);
  g_autofree gboolean *matters = g_new0 (gboolean, n_tracks);
  g_autoptr(GArray) shaded = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(ChronoTrackLayout) layout = chrono_track_layout_new (trace);
  g_autoptr(ChronoViewport) viewport = chrono_viewport_new ();
  g_autoptr(ChronoAnnotations) notes = NULL;
  gint64 end = MAX (finding->end_ns, finding->start_ns + 1);
  gint64 first = finding->start_ns, last = end, pad;
  ChronoTimelineScene *scene;

  for (guint i = 0; i < finding->n_tracks; i++)
    if (finding->tracks[i].trace == t)
      {
        matters[finding->tracks[i].track] = TRUE;
        g_array_append_val (shaded, finding->tracks[i].track);
      }
  for (guint i = 0; i < evidence->len; i++)
    {
      ChronoSpanRef span = g_array_index (evidence, ChronoSpanRef, i);
      const ChronoTrack *track = chrono_trace_get_track (trace, span.track);

      matters[span.track] = TRUE;
      first = MIN (first, track->start[span.index]);
      last = MAX (last, chrono_track_get_end (track, span.index));
    }
  lay_out (trace, layout, matters, evidence);

  pad = MAX ((gint64) ((last - first) * (evidence->len > 0 ? EVIDENCE_PAD : GAP_PAD)),
             CHRONO_VIEWPORT_MIN_DURATION_NS);
  chrono_viewport_set_bounds (viewport, chrono_trace_get_start_ns (trace),
                              MAX (chrono_trace_get_end_ns (trace),
                                   chrono_trace_get_start_ns (trace) + CHRONO_VIEWPORT_MIN_DURATION_NS));
  scene = chrono_timeline_scene_new (trace, indexes, layout, viewport);
  chrono_timeline_scene_set_dark (scene, dark);
  chrono_timeline_scene_set_size (scene, width, chrono_timeline_scene_get_ruler_height (scene) +
                                                chrono_timeline_scene_get_content_height (scene));
  chrono_viewport_zoom_to_range (viewport, first - pad, last + pad);
  chrono_timeline_scene_set_highlight (scene, finding->start_ns, end, (const guint *) shaded->data, shaded->len);
  chrono_timeline_scene_set_marks (scene, (const ChronoSpanRef *) evidence->data, evidence->len);
  notes = make_note (trace, finding, t, end);
  chrono_timeline_scene_set_annotations (scene, notes);
  return scene;
}
