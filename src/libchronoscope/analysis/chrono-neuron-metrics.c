/* chrono-neuron-metrics.c
 *
 * One pass reads the args of each instruction and transfer of the core
 * (JSON text or a Parquet row alike): their FLOPs, bytes and operator
 * names are kept, the rest is not. Windows are then sums over the
 * records that start in them. Formulas: docs/neuron.md, "Metrics".
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <stdlib.h>

#include "chrono-efficiency-private.h"
#include "chrono-fill.h"
#include "chrono-neuron-metrics.h"
#include "chrono-neuron-record.h"

typedef struct {
  gint64  start;
  gint64  end;
  gdouble bytes;
  gdouble hbm_read;
  gdouble hbm_write;
  gdouble spill_save;
  gdouble spill_reload;
} Transfer;

typedef struct {
  gint64  start;
  gint64  end;
  gdouble limit;               /* k/n */
} Throttle;

/* An engine's or a DMA queue's row of the core, its items merged. */
typedef struct {
  const char   *name;
  gboolean      dma;
  const ChronoStreamWork *s;  /* its work */
  GArray       *merged;
  guint32       track;
  guint64       nki;           /* instructions with an NKI source location */
  gint64        plain_first;   /* the span of those without */
  gint64        plain_last;
} Row;

/* The framework operator of a record's texts (layer, HLO attributes,
 * NKI location), kept for the last few: records of a handful of operators
 * interleave, row by row. */
typedef struct {
  guint32 texts[3];
  guint32 op;
} FrameworkSeen;

#define N_FRAMEWORK_SEEN 256

struct _ChronoNeuronMetrics
{
  ChronoRankData          *data;
  guint                    device;
  ChronoNeuronPeak         peak;
  char                    *instance_type;
  JsonNode                *summary;
  JsonNode                *metadata;
  ChronoNeuronFlopsSource  flops_source;
  ChronoNeuronBytesSource  bytes_source;
  gint64                   start;
  gint64                   end;
  gboolean                 window_from_metadata;
  GArray                  *insts;       /* ChronoNeuronInst by start */
  GArray                  *amounts;     /* ChronoNeuronAmounts of the insts that carry any */
  ChronoFill               filling_insts;     /* the three above, while the records are read */
  ChronoFill               filling_amounts;
  ChronoFill               filling_transfers;
  GArray                  *transfers;   /* Transfer by start */
  GArray                  *throttle;    /* Throttle by start, or NULL */
  GArray                  *tensor_busy;
  GArray                  *rows;        /* Row: each engine and DMA queue */
  GArray                  *executions;
  GPtrArray               *op_names;
  GHashTable              *op_index;    /* name -> index + 1 */
  GArray                  *hlo_of_text; /* while reading: by HLO name's text id, operator + 1 (0 not yet) */
  GArray                  *loads_weights; /* while reading: by opcode's string, 0 not yet, 1 no, 2 yes */
  GHashTable              *op_of_name;  /* while reading: framework name's address -> operator */
  FrameworkSeen            framework_seen[N_FRAMEWORK_SEEN]; /* while reading */
};

const char *
chrono_neuron_source_to_string (ChronoNeuronSource source)
{
  static const char * const names[] = { NULL, "settings", "metadata", "table" };

  return names[source];
}

/* -------------------------------------------------------------------- */
/* The profiler's own values                                            */

gboolean
chrono_neuron_summary_number (JsonObject *summary,
                              const char *key,
                              gdouble    *value)
{
  JsonNode *node = summary ? json_object_get_member (summary, key) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  if (json_node_get_value_type (node) == G_TYPE_STRING)
    {
      const char *text = json_node_get_string (node);
      char *end = NULL;

      *value = g_ascii_strtod (text, &end);
      if (end == text)
        return FALSE;
    }
  else if (json_node_get_value_type (node) == G_TYPE_BOOLEAN)
    return FALSE;
  else
    *value = json_node_get_double (node);
  return isfinite (*value);
}

/* Some profiler versions write fractions, which shows when no
 * percentage is above 1. */
gboolean
chrono_neuron_summary_percent (JsonObject *summary,
                               const char *key,
                               gdouble    *value)
{
  g_autoptr(GList) keys = NULL;
  gboolean fractions = TRUE;
  gdouble v;

  if (!chrono_neuron_summary_number (summary, key, value))
    return FALSE;
  keys = json_object_get_members (summary);
  for (GList *l = keys; l != NULL; l = l->next)
    if (g_str_has_suffix (l->data, "_percent") && chrono_neuron_summary_number (summary, l->data, &v) && v > 1.0)
      fractions = FALSE;
  if (fractions)
    *value *= 100;
  return TRUE;
}

/* A kept table's object: itself, or the first of an array. */
static JsonNode *
first_object (JsonNode *node)
{
  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node) && json_array_get_length (json_node_get_array (node)) > 0)
    {
      JsonNode *first = json_node_ref (json_array_get_element (json_node_get_array (node), 0));

      json_node_unref (node);
      node = first;
    }
  if (node != NULL && !JSON_NODE_HOLDS_OBJECT (node))
    g_clear_pointer (&node, json_node_unref);
  return node;
}

static JsonObject *
object_of (JsonNode *node)
{
  return node ? json_node_get_object (node) : NULL;
}

gboolean
chrono_neuron_is_core (ChronoTrace            *trace,
                       const ChronoDeviceWork *d)
{
  for (guint k = 0; k < d->streams->len; k++)
    {
      const ChronoStreamWork *s = &g_array_index (d->streams, ChronoStreamWork, k);
      const ChronoTrack *t = chrono_trace_get_track (trace, s->track);

      if (s->spans->len > 0 && t->kind[g_array_index (s->spans, guint32, 0)] == CHRONO_KIND_INSTRUCTION)
        return TRUE;
    }
  return FALSE;
}

/* -------------------------------------------------------------------- */
/* Peaks                                                                */

static void
find_peak (ChronoNeuronMetrics            *m,
           const ChronoAnalysisThresholds *th)
{
  ChronoNeuronPeak *p = &m->peak;
  JsonObject *md = object_of (m->metadata);
  gdouble rows = 0, cols = 0, ghz = 0, hbm = 0, cores = 0;
  JsonNode *type = md ? json_object_get_member (md, "instance_type") : NULL;

  if (type != NULL && JSON_NODE_HOLDS_VALUE (type) && json_node_get_value_type (type) == G_TYPE_STRING)
    m->instance_type = g_strdup (json_node_get_string (type));
  p->instance_type = m->instance_type;
  p->entry = chrono_device_peaks_lookup_neuron (m->instance_type);

  if (chrono_neuron_summary_number (md, "num_physical_cores", &cores) && cores >= 1)
    {
      p->physical_cores = (guint) cores;
      p->cores_source = CHRONO_NEURON_SOURCE_METADATA;
    }
  else if (p->entry != NULL)
    {
      p->physical_cores = p->entry->default_physical_cores;
      p->cores_source = CHRONO_NEURON_SOURCE_TABLE;
    }
  else
    p->physical_cores = 1;

  if (chrono_neuron_summary_number (md, "tensor_engine_num_rows", &rows) &&
      chrono_neuron_summary_number (md, "tensor_engine_num_cols", &cols) && rows >= 1 && cols >= 1)
    {
      p->rows = (guint) rows;
      p->cols = (guint) cols;
    }
  else if (p->entry != NULL)
    {
      p->rows = p->entry->rows;
      p->cols = p->entry->cols;
    }

  if (th->peak_gflops > 0)
    {
      p->tflops = th->peak_gflops / 1e3;
      p->tflops_source = CHRONO_NEURON_SOURCE_SETTINGS;
    }
  else if (rows >= 1 && cols >= 1 && chrono_neuron_summary_number (md, "tensor_engine_clock_freq", &ghz) && ghz > 0)
    {
      p->tflops = p->physical_cores * 2 * rows * cols * ghz / 1e3;
      p->tflops_source = CHRONO_NEURON_SOURCE_METADATA;
    }
  else if (p->entry != NULL)
    {
      p->tflops = p->physical_cores * p->entry->bf16_tflops;
      p->tflops_source = CHRONO_NEURON_SOURCE_TABLE;
    }

  if (th->peak_memory_gbps > 0)
    {
      p->hbm_gbps = th->peak_memory_gbps;
      p->hbm_source = CHRONO_NEURON_SOURCE_SETTINGS;
    }
  else if (chrono_neuron_summary_number (md, "hbm_ddr_bandwidth", &hbm) && hbm > 0)
    {
      p->hbm_gbps = hbm / 1e9;
      p->hbm_source = CHRONO_NEURON_SOURCE_METADATA;
    }
  else if (p->entry != NULL)
    {
      p->hbm_gbps = p->entry->hbm_gbps;
      p->hbm_source = CHRONO_NEURON_SOURCE_TABLE;
    }
}

/* -------------------------------------------------------------------- */
/* Reading the records                                                  */

static guint32
intern_op (ChronoNeuronMetrics *m,
           const char          *name)
{
  gpointer found;
  char *copy;

  if (name == NULL || *name == '\0')
    return G_MAXUINT32;
  found = g_hash_table_lookup (m->op_index, name);
  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  copy = g_strdup (name);
  g_ptr_array_add (m->op_names, copy);
  g_hash_table_insert (m->op_index, copy, GUINT_TO_POINTER (m->op_names->len));
  return m->op_names->len - 1;
}

/* Many instructions share an HLO instruction and a framework operator:
 * each is named once per text the facts keep, not once per instruction. */
/* Element ID of BY_TEXT, an array over text ids (the facts' or the
 * trace's strings) made with zeroed elements, grown to hold it: what was
 * decided once per text. */
static gpointer
per_text (GArray  *by_text,
          guint32  id)
{
  if (id >= by_text->len)
    g_array_set_size (by_text, MAX (id + 1, 2 * by_text->len));
  return by_text->data + (gsize) id * g_array_get_element_size (by_text);
}

static guint32
hlo_op_of (ChronoNeuronMetrics *m,
           ChronoNeuronRecord  *r)
{
  guint32 *op;

  if (!chrono_neuron_record_has (r, CHRONO_NEURON_F_HLO_NAME))
    return G_MAXUINT32;
  op = per_text (m->hlo_of_text, r->row.text[CHRONO_NEURON_F_HLO_NAME - CHRONO_NEURON_N_NUMBERS]);
  if (*op == 0)
    *op = intern_op (m, chrono_neuron_record_hlo_op (r)) + 1;
  return *op - 1;
}

/* The text of field F of R, or G_MAXUINT32 without one. */
static guint32
text_id (const ChronoNeuronRecord *r,
         ChronoNeuronField         f)
{
  return chrono_neuron_record_has (r, f) ? r->row.text[f - CHRONO_NEURON_N_NUMBERS] : G_MAXUINT32;
}

static guint32
framework_op_of (ChronoNeuronMetrics *m,
                 ChronoNeuronRecord  *r)
{
  const guint32 texts[3] = { text_id (r, CHRONO_NEURON_F_LAYER), text_id (r, CHRONO_NEURON_F_HLO_ATTRS),
                             text_id (r, CHRONO_NEURON_F_NKI) };
  const char *name;
  gpointer found;
  guint32 op;

  FrameworkSeen *seen = &m->framework_seen[((texts[0] * 0x9E3779B1u) ^ (texts[1] * 0x85EBCA77u) ^
                                             (texts[2] * 0xC2B2AE3Du)) % N_FRAMEWORK_SEEN];

  /* The operator's texts decide it. */
  if (memcmp (texts, seen->texts, sizeof texts) == 0)
    return seen->op;
  memcpy (seen->texts, texts, sizeof texts);
  name = chrono_neuron_record_framework_op (r);
  seen->op = G_MAXUINT32;
  if (name == NULL)
    return G_MAXUINT32;
  if (g_hash_table_lookup_extended (m->op_of_name, name, NULL, &found))
    return seen->op = GPOINTER_TO_UINT (found);
  op = intern_op (m, name);
  g_hash_table_insert (m->op_of_name, (gpointer) name, GUINT_TO_POINTER (op));
  return seen->op = op;
}

static gboolean
is_tensor_track (ChronoTrace       *trace,
                 const ChronoTrack *t)
{
  return g_str_has_prefix (chrono_trace_get_string (trace, t->display_name), "Tensor");
}

/* LDWEIGHTS loads the stationary operand: no FLOPs of its own. Decided
 * once per opcode. */
static gboolean
is_load_weights (ChronoNeuronMetrics *m,
                 guint32              opcode)
{
  guint8 *known = per_text (m->loads_weights, opcode);

  if (*known == 0)
    {
      const char *name = chrono_trace_get_string (m->data->trace, opcode);

      *known = name != NULL && (strstr (name, "LDWEIGHTS") != NULL || strstr (name, "LoadStationary") != NULL) ? 2 : 1;
    }
  return *known == 2;
}

static void
read_instruction (ChronoNeuronMetrics *m,
                  ChronoNeuronRecord  *r,
                  const ChronoTrack   *t,
                  const ChronoWorkItem *item,
                  gboolean             tensor,
                  gboolean            *any_flops,
                  gboolean            *any_elements,
                  gboolean            *any_bytes)
{
  ChronoNeuronInst in = { item->start, item->end, item->track, item->index, .amounts = G_MAXUINT32 };
  ChronoNeuronAmounts a = { 0 };
  guint32 opcode = chrono_track_get_name (t, item->index);
  gdouble elements;
  const char *type = chrono_neuron_record_text (r, CHRONO_NEURON_F_TYPE);
  gboolean transpose = type != NULL && g_ascii_strcasecmp (type, "TRANSPOSE") == 0;

  in.tensor = tensor;
  if (tensor && chrono_neuron_record_number (r, CHRONO_NEURON_F_RAW_FLOPS, &a.raw_flops))
    {
      *any_flops = TRUE;
      a.flops = chrono_neuron_record_number_or (r, CHRONO_NEURON_F_ADJUSTED_FLOPS, a.raw_flops);
      a.transpose_flops = chrono_neuron_record_number_or (r, CHRONO_NEURON_F_ADJUSTED_TRANSPOSE,
                                            chrono_neuron_record_number_or (r, CHRONO_NEURON_F_FLOPS_TRANSPOSE, transpose ? a.flops : 0));
    }
  else if (tensor && !is_load_weights (m, opcode) &&
           (chrono_neuron_record_number (r, CHRONO_NEURON_F_ELEMENTS, &elements) || chrono_neuron_record_number (r, CHRONO_NEURON_F_TENSOR_ELEMENTS, &elements)))
    {
      *any_elements = TRUE;
      a.raw_flops = a.flops = 2.0 * m->peak.rows * m->peak.cols * elements;
      a.transpose_flops = transpose ? a.flops : 0;
    }
  a.hbm_read = chrono_neuron_record_number_or (r, CHRONO_NEURON_F_HBM_READ, 0);
  a.hbm_write = chrono_neuron_record_number_or (r, CHRONO_NEURON_F_HBM_WRITE, 0);
  a.spill_save = chrono_neuron_record_number_or (r, CHRONO_NEURON_F_SPILL_SAVE, 0);
  a.spill_reload = chrono_neuron_record_number_or (r, CHRONO_NEURON_F_SPILL_RELOAD, 0);
  if (chrono_neuron_record_has (r, CHRONO_NEURON_F_HBM_READ) || chrono_neuron_record_has (r, CHRONO_NEURON_F_HBM_WRITE) ||
      chrono_neuron_record_has (r, CHRONO_NEURON_F_SPILL_SAVE) || chrono_neuron_record_has (r, CHRONO_NEURON_F_SPILL_RELOAD))
    *any_bytes = TRUE;
  in.hlo_op = hlo_op_of (m, r);
  in.framework_op = framework_op_of (m, r);
  if (!tensor && a.hbm_read + a.hbm_write + a.spill_save + a.spill_reload <= 0 &&
      in.hlo_op == G_MAXUINT32 && in.framework_op == G_MAXUINT32)
    return;
  if (a.flops != 0 || a.raw_flops != 0 || a.transpose_flops != 0 ||
      a.hbm_read != 0 || a.hbm_write != 0 || a.spill_save != 0 || a.spill_reload != 0)
    {
      in.amounts = m->filling_amounts.n;
      *(ChronoNeuronAmounts *) chrono_fill_next (&m->filling_amounts) = a;
    }
  *(ChronoNeuronInst *) chrono_fill_next (&m->filling_insts) = in;
}

/* What a DMA queue's transfers are, by its name. */
typedef enum {
  QUEUE_PLAIN,
  QUEUE_SPILL_SAVE,
  QUEUE_SPILL_RELOAD,
} QueueKind;

static QueueKind
queue_kind (const char *queue)
{
  if (strstr (queue, "SpillReload") != NULL)
    return QUEUE_SPILL_RELOAD;
  return strstr (queue, "Spill") != NULL ? QUEUE_SPILL_SAVE : QUEUE_PLAIN;
}

/* SBUF and PSUM are on the core; anything else a transfer reads or
 * writes is HBM (weights, inputs, outputs, spills). Decided once per
 * text of the facts, kept in ON_CORE (0 not yet, 1 no, 2 yes). */
static gboolean
is_on_core (const ChronoNeuronRecord *r,
            ChronoNeuronField         f,
            GArray                   *on_core)
{
  guint8 *known = per_text (on_core, r->row.text[f - CHRONO_NEURON_N_NUMBERS]);

  if (*known == 0)
    {
      const char *memory = chrono_neuron_record_text (r, f);

      *known = strstr (memory, "SB") != NULL || strstr (memory, "PSUM") != NULL ? 2 : 1;
    }
  return *known == 2;
}

static void
read_transfer (ChronoNeuronMetrics      *m,
               const ChronoNeuronRecord *r,
               QueueKind                 queue,
               GArray                   *on_core,
               const ChronoWorkItem     *item)
{
  Transfer tr = { item->start, item->end };

  tr.bytes = chrono_neuron_record_number_or (r, CHRONO_NEURON_F_TRANSFER_BYTES, chrono_neuron_record_number_or (r, CHRONO_NEURON_F_TRANSFER_SIZE, 0));

  if (chrono_neuron_record_has (r, CHRONO_NEURON_F_SOURCE) && !is_on_core (r, CHRONO_NEURON_F_SOURCE, on_core))
    tr.hbm_read = tr.bytes;
  if (chrono_neuron_record_has (r, CHRONO_NEURON_F_DEST) && !is_on_core (r, CHRONO_NEURON_F_DEST, on_core))
    tr.hbm_write = tr.bytes;
  if (queue == QUEUE_SPILL_RELOAD)
    tr.spill_reload = tr.bytes;
  else if (queue == QUEUE_SPILL_SAVE)
    tr.spill_save = tr.bytes;
  *(Transfer *) chrono_fill_next (&m->filling_transfers) = tr;
}

/* A row of the core as the records are read, all rows at once. */
typedef struct {
  const ChronoStreamWork *s;
  const ChronoTrack      *t;
  guint                   row;     /* in the metrics' rows */
  guint                   next;    /* its next item */
  gint64                  head;    /* that item's start */
  guint                   near;    /* where its last record was among the facts */
  gboolean                tensor;
  gboolean                reading; /* until an item neither instruction nor transfer */
  QueueKind               queue;
} Cursor;

/* Whether cursor A's next item, of CURSORS, comes before B's: by start,
 * then by row, the order a stable sort of the rows one after the other
 * gives. */
static gboolean
cursor_before (guint         a,
               guint         b,
               gconstpointer cursors)
{
  const Cursor *c = cursors;

  return c[a].head < c[b].head || (c[a].head == c[b].head && a < b);
}

/* Every instruction's and transfer's record, the rows merged by start:
 * the instructions and transfers come out in order, and the records are
 * read nearly in the order of the file. */
static void
read_records (ChronoNeuronMetrics *m)
{
  ChronoTrace *trace = m->data->trace;
  const ChronoDeviceWork *d = &g_array_index (m->data->devices, ChronoDeviceWork, m->device);
  gboolean any_flops = FALSE, any_elements = FALSE, any_bytes = FALSE;
  g_autofree Cursor *cursors = g_new0 (Cursor, d->streams->len);
  g_autofree guint *heap = g_new (guint, d->streams->len);
  g_autoptr(GArray) on_core = g_array_new (FALSE, TRUE, sizeof (guint8));
  guint n_heap = 0;
  ChronoNeuronRecord r;
  gsize items = 0;

  chrono_neuron_record_init (&r, trace);
  m->hlo_of_text = g_array_new (FALSE, TRUE, sizeof (guint32));
  m->loads_weights = g_array_new (FALSE, TRUE, sizeof (guint8));
  m->op_of_name = g_hash_table_new (NULL, NULL);
  /* Records with none of the texts have no operator. */
  for (guint k = 0; k < N_FRAMEWORK_SEEN; k++)
    m->framework_seen[k] = (FrameworkSeen) { { G_MAXUINT32, G_MAXUINT32, G_MAXUINT32 }, G_MAXUINT32 };
  for (guint k = 0; k < d->streams->len; k++)
    {
      const ChronoStreamWork *s = &g_array_index (d->streams, ChronoStreamWork, k);
      const ChronoTrack *t = chrono_trace_get_track (trace, s->track);
      ChronoKind first = s->spans->len > 0 ? t->kind[g_array_index (s->spans, guint32, 0)] : CHRONO_KIND_OTHER;
      Row row;

      /* A row of neither instructions nor transfers is no row of the core. */
      if (first != CHRONO_KIND_INSTRUCTION && first != CHRONO_KIND_DMA)
        continue;
      row = (Row) { chrono_trace_get_string (trace, t->display_name), first == CHRONO_KIND_DMA, s,
                    chrono_intervals_of_stream (m->data, s),
                    s->track, 0, G_MAXINT64, G_MININT64 };
      g_array_append_val (m->rows, row);
      cursors[k] = (Cursor) { s, t, m->rows->len - 1, 0, 0, 0,
                              is_tensor_track (trace, t), TRUE, queue_kind (row.name) };
      cursors[k].head = chrono_rank_data_span_start (m->data, t, g_array_index (s->spans, guint32, 0));
      heap[n_heap++] = k;
      items += s->spans->len;
    }
  /* Room for every item at once, filled in place. */
  chrono_fill_start (&m->filling_insts, m->insts, items);
  chrono_fill_start (&m->filling_amounts, m->amounts, items);
  chrono_fill_start (&m->filling_transfers, m->transfers, items);
  for (guint h = n_heap; h-- > 0;)
    chrono_heap_sift (heap, n_heap, h, cursor_before, cursors);
  while (n_heap > 0)
    {
      Cursor *c = &cursors[heap[0]];
      Row *row = &g_array_index (m->rows, Row, c->row);
      /* The row that comes next: this one's items go out until one of
       * them comes after that row's head, with no sifting meanwhile. */
      guint second = n_heap < 2 ? G_MAXUINT
                   : n_heap > 2 && cursor_before (heap[2], heap[1], cursors) ? heap[2] : heap[1];
      gboolean done = FALSE;

      do
        {
          ChronoWorkItem item = { .track = c->s->track, .index = g_array_index (c->s->spans, guint32, c->next) };
          ChronoKind kind = c->t->kind[item.index];

          chrono_rank_data_span_times (m->data, c->t, item.index, &item.start, &item.end);
          /* The metrics stop at a row's first item that is neither; the
           * NKI count, for the rules, takes the whole row. */
          c->reading = c->reading && (kind == CHRONO_KIND_INSTRUCTION || kind == CHRONO_KIND_DMA);
          /* A row's records follow one another in the file, apart from
           * the other rows': the search goes on from its own last one. */
          chrono_neuron_record_read_near (&r, chrono_track_get_args (c->t, item.index), &c->near);
          if (c->reading && kind == CHRONO_KIND_INSTRUCTION)
            read_instruction (m, &r, c->t, &item, c->tensor, &any_flops, &any_elements, &any_bytes);
          else if (c->reading)
            read_transfer (m, &r, c->queue, on_core, &item);
          if (chrono_neuron_record_has (&r, CHRONO_NEURON_F_NKI))
            row->nki++;
          else
            {
              row->plain_first = MIN (row->plain_first, item.start);
              row->plain_last = MAX (row->plain_last, item.end);
            }
          if (++c->next == c->s->spans->len)
            done = TRUE;
          else
            c->head = chrono_rank_data_span_start (m->data, c->t, g_array_index (c->s->spans, guint32, c->next));
        }
      while (!done && (second == G_MAXUINT || cursor_before (heap[0], second, cursors)));
      if (done)
        heap[0] = heap[--n_heap];
      chrono_heap_sift (heap, n_heap, 0, cursor_before, cursors);
    }
  chrono_fill_end (&m->filling_insts);
  chrono_fill_end (&m->filling_amounts);
  chrono_fill_end (&m->filling_transfers);
  chrono_neuron_record_clear (&r);
  g_clear_pointer (&m->hlo_of_text, g_array_unref);
  g_clear_pointer (&m->loads_weights, g_array_unref);
  g_clear_pointer (&m->op_of_name, g_hash_table_unref);
  m->flops_source = any_flops ? CHRONO_NEURON_FLOPS_PROFILER
                  : any_elements ? CHRONO_NEURON_FLOPS_ELEMENTS : CHRONO_NEURON_FLOPS_NONE;
  if (any_bytes)
    m->bytes_source = CHRONO_NEURON_BYTES_INSTRUCTIONS;
  else
    for (guint i = 0; i < m->transfers->len && m->bytes_source == CHRONO_NEURON_BYTES_NONE; i++)
      {
        const Transfer *tr = &g_array_index (m->transfers, Transfer, i);

        if (tr->hbm_read + tr->hbm_write + tr->spill_reload + tr->spill_save > 0)
          m->bytes_source = CHRONO_NEURON_BYTES_DMA;
      }
}

static void
read_throttle (ChronoNeuronMetrics *m)
{
  g_autoptr(JsonNode) node = chrono_trace_get_metadata (m->data->trace, "neuron_throttle");
  JsonArray *rows;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return;
  rows = json_node_get_array (node);
  m->throttle = g_array_new (FALSE, FALSE, sizeof (Throttle));
  for (guint i = 0; i < json_array_get_length (rows); i++)
    {
      JsonNode *e = json_array_get_element (rows, i);
      JsonObject *o = JSON_NODE_HOLDS_OBJECT (e) ? json_node_get_object (e) : NULL;
      gdouble ts, dur, k, n;

      if (chrono_neuron_summary_number (o, "timestamp", &ts) && chrono_neuron_summary_number (o, "duration", &dur) &&
          chrono_neuron_summary_number (o, "k", &k) && chrono_neuron_summary_number (o, "n", &n) && n > 0 && dur > 0)
        {
          Throttle t = { (gint64) ts, (gint64) (ts + dur), CLAMP (k / n, 0, 1) };
          g_array_append_val (m->throttle, t);
        }
    }
  chrono_array_sort_by_int64 (m->throttle, G_STRUCT_OFFSET (Throttle, start));
}

static void
read_executions (ChronoNeuronMetrics    *m,
                 const ChronoDeviceWork *d)
{
  g_autoptr(JsonNode) node = chrono_trace_get_metadata (m->data->trace, "neuron_executions");
  gint64 shift = chrono_rank_data_clock_shift (m->data, d->process);

  m->executions = g_array_new (FALSE, FALSE, sizeof (ChronoStep));
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return;
  for (guint i = 0; i < json_array_get_length (json_node_get_array (node)); i++)
    {
      JsonNode *e = json_array_get_element (json_node_get_array (node), i);
      JsonObject *o = JSON_NODE_HOLDS_OBJECT (e) ? json_node_get_object (e) : NULL;
      gdouble start, end, index = i;

      chrono_neuron_summary_number (o, "execution_index", &index);
      if (chrono_neuron_summary_number (o, "execution_start_ts", &start) &&
          chrono_neuron_summary_number (o, "execution_end_ts", &end) && end > start)
        {
          ChronoStep step = { CHRONO_NO_TRACK, (guint32) index, (gint64) start + shift, (gint64) end + shift, (gint64) end + shift };
          g_array_append_val (m->executions, step);
        }
    }
}

/* The core's first to last work, from its rows: the metrics are read
 * while the rows are still being merged into the core's busy time.
 * FALSE when no work has a length. */
static gboolean
work_window (const ChronoRankData   *data,
             const ChronoDeviceWork *d,
             gint64                 *start,
             gint64                 *end)
{
  *start = G_MAXINT64;
  *end = G_MININT64;
  for (guint k = 0; k < d->streams->len; k++)
    {
      const ChronoStreamWork *s = &g_array_index (d->streams, ChronoStreamWork, k);
      const ChronoTrack *t = chrono_trace_get_track (data->trace, s->track);

      for (guint j = 0; j < s->spans->len; j++)
        {
          gint64 s0, s1;

          chrono_rank_data_span_times (data, t, g_array_index (s->spans, guint32, j), &s0, &s1);
          if (s1 > s0)
            {
              *start = MIN (*start, s0);
              *end = MAX (*end, s1);
            }
        }
    }
  return *end > *start;
}

/* The profiler's total time runs from the first to the last hardware
 * timestamp, idle ends included; the core's first to last work when the
 * Metadata does not give them around it (another clock). */
static void
find_window (ChronoNeuronMetrics    *m,
             const ChronoDeviceWork *d,
             gint64                  work_start,
             gint64                  work_end)
{
  JsonObject *md = object_of (m->metadata);
  gint64 shift = chrono_rank_data_clock_shift (m->data, d->process);
  gdouble first, last;

  m->start = work_start;
  m->end = work_end;
  if (chrono_neuron_summary_number (md, "first_hw_timestamp", &first) &&
      chrono_neuron_summary_number (md, "last_hw_timestamp", &last) &&
      (first += shift) <= m->start && (last += shift) >= m->end && m->data->range_start <= first && m->data->range_end >= last)
    {
      m->start = (gint64) first;
      m->end = (gint64) last;
      m->window_from_metadata = TRUE;
    }
}

ChronoNeuronMetrics *
chrono_neuron_metrics_new (ChronoRankData                 *data,
                           guint                           device,
                           const ChronoAnalysisThresholds *thresholds)
{
  const ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, device);
  ChronoNeuronMetrics *m;
  gint64 work_start, work_end;

  if (!chrono_neuron_is_core (data->trace, d) || !work_window (data, d, &work_start, &work_end))
    return NULL;
  m = g_new0 (ChronoNeuronMetrics, 1);
  m->data = data;
  m->device = device;
  m->summary = first_object (chrono_trace_get_metadata (data->trace, "neuron_summary"));
  m->metadata = first_object (chrono_trace_get_metadata (data->trace, "neuron_metadata"));
  find_window (m, d, work_start, work_end);
  m->insts = g_array_new (FALSE, FALSE, sizeof (ChronoNeuronInst));
  m->amounts = g_array_new (FALSE, FALSE, sizeof (ChronoNeuronAmounts));
  m->transfers = g_array_new (FALSE, FALSE, sizeof (Transfer));
  m->rows = g_array_new (FALSE, FALSE, sizeof (Row));
  m->op_names = g_ptr_array_new_with_free_func (g_free);
  m->op_index = g_hash_table_new (g_str_hash, g_str_equal);
  find_peak (m, thresholds);
  read_records (m);
  read_throttle (m);
  read_executions (m, d);

  /* The Tensor engine is the union of its rows, each merged already. */
  m->tensor_busy = g_array_new (FALSE, FALSE, sizeof (ChronoInterval));
  for (guint i = 0; i < m->rows->len; i++)
    {
      const Row *row = &g_array_index (m->rows, Row, i);

      if (!row->dma && is_tensor_track (data->trace, chrono_trace_get_track (data->trace, row->track)))
        {
          GArray *both = chrono_intervals_union (m->tensor_busy, row->merged);

          g_array_unref (m->tensor_busy);
          m->tensor_busy = both;
        }
    }
  return m;
}

void
chrono_neuron_metrics_free (ChronoNeuronMetrics *m)
{
  g_clear_pointer (&m->summary, json_node_unref);
  g_clear_pointer (&m->metadata, json_node_unref);
  g_clear_pointer (&m->insts, g_array_unref);
  g_clear_pointer (&m->amounts, g_array_unref);
  g_clear_pointer (&m->transfers, g_array_unref);
  g_clear_pointer (&m->throttle, g_array_unref);
  g_clear_pointer (&m->tensor_busy, g_array_unref);
  for (guint i = 0; m->rows && i < m->rows->len; i++)
    g_array_unref (g_array_index (m->rows, Row, i).merged);
  g_clear_pointer (&m->rows, g_array_unref);
  g_clear_pointer (&m->executions, g_array_unref);
  g_clear_pointer (&m->op_index, g_hash_table_unref);
  g_clear_pointer (&m->op_names, g_ptr_array_unref);
  g_free (m->instance_type);
  g_free (m);
}

/* -------------------------------------------------------------------- */
/* Accessors                                                            */

ChronoRankData *
chrono_neuron_metrics_get_rank (ChronoNeuronMetrics *m)
{
  return m->data;
}

const ChronoDeviceWork *
chrono_neuron_metrics_get_device (ChronoNeuronMetrics *m)
{
  return &g_array_index (m->data->devices, ChronoDeviceWork, m->device);
}

const ChronoNeuronPeak *
chrono_neuron_metrics_get_peak (ChronoNeuronMetrics *m)
{
  return &m->peak;
}

ChronoNeuronFlopsSource
chrono_neuron_metrics_get_flops_source (ChronoNeuronMetrics *m)
{
  return m->flops_source;
}

ChronoNeuronBytesSource
chrono_neuron_metrics_get_bytes_source (ChronoNeuronMetrics *m)
{
  return m->bytes_source;
}

gboolean
chrono_neuron_metrics_get_window (ChronoNeuronMetrics *m,
                                  gint64              *start,
                                  gint64              *end)
{
  *start = m->start;
  *end = m->end;
  return m->window_from_metadata;
}

JsonObject *
chrono_neuron_metrics_get_summary (ChronoNeuronMetrics *m)
{
  return object_of (m->summary);
}

const ChronoNeuronAmounts *
chrono_neuron_metrics_get_amounts (ChronoNeuronMetrics    *m,
                                   const ChronoNeuronInst *in)
{
  static const ChronoNeuronAmounts none = { 0 };

  return in->amounts == G_MAXUINT32 ? &none : &g_array_index (m->amounts, ChronoNeuronAmounts, in->amounts);
}

const ChronoNeuronInst *
chrono_neuron_metrics_get_insts (ChronoNeuronMetrics *m,
                                 guint               *n_insts)
{
  *n_insts = m->insts->len;
  return (const ChronoNeuronInst *) m->insts->data;
}

const char *
chrono_neuron_metrics_op_name (ChronoNeuronMetrics *m,
                               guint32              index)
{
  return index < m->op_names->len ? g_ptr_array_index (m->op_names, index) : NULL;
}

GArray *
chrono_neuron_metrics_tensor_busy (ChronoNeuronMetrics *m)
{
  return m->tensor_busy;
}

GArray *
chrono_neuron_metrics_executions (ChronoNeuronMetrics *m)
{
  return m->executions;
}

/* -------------------------------------------------------------------- */
/* Windows                                                              */

void
chrono_neuron_metrics_totals (ChronoNeuronMetrics *m,
                              gint64               start,
                              gint64               end,
                              ChronoNeuronTotals  *t)
{
  guint first;

  memset (t, 0, sizeof *t);
  first = chrono_lower_bound (m->insts->data, m->insts->len, sizeof (ChronoNeuronInst),
                              G_STRUCT_OFFSET (ChronoNeuronInst, start), start);
  for (guint i = first; i < m->insts->len; i++)
    {
      const ChronoNeuronInst *in = &g_array_index (m->insts, ChronoNeuronInst, i);
      const ChronoNeuronAmounts *a;

      if (in->start >= end)
        break;
      t->tensor_instructions += in->tensor;
      if (in->amounts == G_MAXUINT32)
        continue;
      a = &g_array_index (m->amounts, ChronoNeuronAmounts, in->amounts);
      t->hardware_flops += a->flops;
      t->raw_flops += a->raw_flops;
      t->transpose_flops += a->transpose_flops;
      if (m->bytes_source == CHRONO_NEURON_BYTES_INSTRUCTIONS)
        {
          t->hbm_read_bytes += a->hbm_read;
          t->hbm_write_bytes += a->hbm_write;
          t->spill_save_bytes += a->spill_save;
          t->spill_reload_bytes += a->spill_reload;
        }
    }
  first = chrono_lower_bound (m->transfers->data, m->transfers->len, sizeof (Transfer),
                              G_STRUCT_OFFSET (Transfer, start), start);
  for (guint i = first; i < m->transfers->len; i++)
    {
      const Transfer *tr = &g_array_index (m->transfers, Transfer, i);

      if (tr->start >= end)
        break;
      t->dma_transfers++;
      t->dma_bytes += tr->bytes;
      t->small_dma_transfers += tr->bytes < CHRONO_NEURON_SMALL_DMA;
      if (m->bytes_source == CHRONO_NEURON_BYTES_DMA)
        {
          t->hbm_read_bytes += tr->hbm_read;
          t->hbm_write_bytes += tr->hbm_write;
          t->spill_save_bytes += tr->spill_save;
          t->spill_reload_bytes += tr->spill_reload;
        }
    }
}

gdouble
chrono_neuron_metrics_model_flops (ChronoNeuronMetrics      *m,
                                   gint64                    start,
                                   gint64                    end,
                                   const ChronoNeuronTotals *t,
                                   gboolean                 *from_hlo)
{
  gdouble hlo;

  *from_hlo = start <= m->start && end >= m->end &&
              chrono_neuron_summary_number (object_of (m->summary), "model_flops", &hlo) && hlo > 0;
  return *from_hlo ? hlo : t->hardware_flops - t->transpose_flops;
}

gboolean
chrono_neuron_metrics_flops_percent (ChronoNeuronMetrics *m,
                                     gdouble              flops,
                                     gint64               start,
                                     gint64               end,
                                     gdouble             *percent)
{
  if (m->peak.tflops <= 0 || end <= start || m->flops_source == CHRONO_NEURON_FLOPS_NONE)
    return FALSE;
  *percent = 100 * flops / (m->peak.tflops * 1e12 * (end - start) / 1e9);
  return TRUE;
}

gboolean
chrono_neuron_metrics_bytes_percent (ChronoNeuronMetrics *m,
                                     gdouble              bytes,
                                     gint64               start,
                                     gint64               end,
                                     gdouble             *percent)
{
  if (m->peak.hbm_gbps <= 0 || end <= start || m->bytes_source == CHRONO_NEURON_BYTES_NONE)
    return FALSE;
  *percent = 100 * bytes / (m->peak.hbm_gbps * (end - start));
  return TRUE;
}

gboolean
chrono_neuron_metrics_throttling (ChronoNeuronMetrics *m,
                                  gint64               start,
                                  gint64               end,
                                  gdouble             *lost_ns,
                                  gint64              *active_ns)
{
  *lost_ns = 0;
  *active_ns = chrono_intervals_length_in (m->tensor_busy, start, end);
  if (m->throttle == NULL)
    return FALSE;
  /* Throttle records may overlap: each Tensor nanosecond takes the
   * lowest limit over it, found between the records' ends. */
  for (guint b = 0; b < m->tensor_busy->len; b++)
    {
      const ChronoInterval *iv = &g_array_index (m->tensor_busy, ChronoInterval, b);
      gint64 s = MAX (iv->start, start), e = MIN (iv->end, end);
      g_autoptr(GArray) cuts = NULL;

      if (s >= e)
        continue;
      cuts = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_array_append_val (cuts, s);
      g_array_append_val (cuts, e);
      for (guint i = 0; i < m->throttle->len; i++)
        {
          const Throttle *t = &g_array_index (m->throttle, Throttle, i);

          if (t->start >= e)
            break;
          if (t->end <= s)
            continue;
          if (t->start > s)
            g_array_append_val (cuts, t->start);
          if (t->end < e)
            g_array_append_val (cuts, t->end);
        }
      chrono_array_sort_by_int64 (cuts, 0);
      for (guint c = 0; c + 1 < cuts->len; c++)
        {
          gint64 x = g_array_index (cuts, gint64, c), y = g_array_index (cuts, gint64, c + 1);
          gdouble limit = 1;

          for (guint i = 0; i < m->throttle->len && y > x; i++)
            {
              const Throttle *t = &g_array_index (m->throttle, Throttle, i);

              if (t->start >= y)
                break;
              if (t->end > x)
                limit = MIN (limit, t->limit);
            }
          *lost_ns += (1 - limit) * (y - x);
        }
    }
  return TRUE;
}

ChronoNeuronMetrics *
chrono_neuron_metrics_of (ChronoRankData                 *data,
                          guint                           device,
                          const ChronoAnalysisThresholds *thresholds)
{
  static GMutex lock;
  ChronoDeviceWork *d = &g_array_index (data->devices, ChronoDeviceWork, device);

  /* The report, the operator table and the app's pages read them from
   * other threads than the rules that built them. */
  g_mutex_lock (&lock);
  if (d->neuron_metrics == NULL)
    d->neuron_metrics = chrono_neuron_metrics_new (data, device, thresholds);
  g_mutex_unlock (&lock);
  return d->neuron_metrics;
}

GPtrArray *
chrono_neuron_metrics_for_analysis (ChronoAnalysis *analysis)
{
  const ChronoAnalysisThresholds *th = chrono_efficiency_get_thresholds (chrono_analysis_get_efficiency_data (analysis));
  GPtrArray *cores = g_ptr_array_new ();
  guint n_ranks;
  ChronoRankData **ranks = chrono_analysis_get_ranks (analysis, &n_ranks);

  for (guint r = 0; r < n_ranks; r++)
    for (guint di = 0; di < ranks[r]->devices->len; di++)
      {
        ChronoNeuronMetrics *m = chrono_neuron_metrics_of (ranks[r], di, th);

        if (m != NULL)
          g_ptr_array_add (cores, m);
      }
  return cores;
}

const char *
chrono_neuron_figure_name (ChronoNeuronFigure figure)
{
  static const char * const names[CHRONO_NEURON_N_FIGURES] = {
    "hfu_percent", "mfu_percent", "mbu_percent", "hardware_flops", "transpose_flops", "model_flops",
    "hbm_read_bytes", "hbm_write_bytes", "spill_save_bytes", "spill_reload_bytes",
    "arithmetic_intensity", "ridge_flops_per_byte", "dma_transfers",
  };

  return names[figure];
}

static gdouble
percent_or_nan (gboolean known,
                gdouble  value)
{
  return known ? value : NAN;
}

void
chrono_neuron_metrics_window (ChronoNeuronMetrics *m,
                              gint64               start,
                              gint64               end,
                              ChronoNeuronWindow  *w)
{
  const ChronoNeuronPeak *p = &m->peak;
  gboolean flops = m->flops_source != CHRONO_NEURON_FLOPS_NONE;
  gboolean bytes = m->bytes_source != CHRONO_NEURON_BYTES_NONE;
  gdouble hbm, v = 0;
  gboolean known;

  w->start = start;
  w->end = end;
  chrono_neuron_metrics_totals (m, start, end, &w->t);
  w->model_flops = chrono_neuron_metrics_model_flops (m, start, end, &w->t, &w->model_from_hlo);
  hbm = w->t.hbm_read_bytes + w->t.hbm_write_bytes;

  known = chrono_neuron_metrics_flops_percent (m, w->t.hardware_flops, start, end, &v);
  w->v[CHRONO_NEURON_HFU] = percent_or_nan (known, v);
  known = chrono_neuron_metrics_flops_percent (m, w->model_flops, start, end, &v);
  w->v[CHRONO_NEURON_MFU] = percent_or_nan (known, v);
  known = chrono_neuron_metrics_bytes_percent (m, hbm, start, end, &v);
  w->v[CHRONO_NEURON_MBU] = percent_or_nan (known, v);
  w->v[CHRONO_NEURON_HARDWARE_FLOPS] = flops ? w->t.hardware_flops : NAN;
  w->v[CHRONO_NEURON_TRANSPOSE_FLOPS] = flops ? w->t.transpose_flops : NAN;
  w->v[CHRONO_NEURON_MODEL_FLOPS] = flops || w->model_from_hlo ? w->model_flops : NAN;
  w->v[CHRONO_NEURON_HBM_READ] = bytes ? w->t.hbm_read_bytes : NAN;
  w->v[CHRONO_NEURON_HBM_WRITE] = bytes ? w->t.hbm_write_bytes : NAN;
  w->v[CHRONO_NEURON_SPILL_SAVE] = bytes ? w->t.spill_save_bytes : NAN;
  w->v[CHRONO_NEURON_SPILL_RELOAD] = bytes ? w->t.spill_reload_bytes : NAN;
  w->v[CHRONO_NEURON_INTENSITY] = flops && bytes && hbm > 0 ? (w->t.hardware_flops - w->t.transpose_flops) / hbm : NAN;
  w->v[CHRONO_NEURON_RIDGE] = p->tflops > 0 && p->hbm_gbps > 0 ? p->tflops * 1e3 / p->hbm_gbps : NAN;
  w->v[CHRONO_NEURON_DMA_TRANSFERS] = (gdouble) w->t.dma_transfers;
}


gboolean
chrono_neuron_metrics_nki (ChronoNeuronMetrics *m,
                           guint32              track,
                           guint64             *nki,
                           guint64             *all,
                           gint64              *first,
                           gint64              *last)
{
  for (guint r = 0; r < m->rows->len; r++)
    {
      const Row *row = &g_array_index (m->rows, Row, r);

      if (row->track != track)
        continue;
      *nki = row->nki;
      *all = row->s->spans->len;
      *first = row->plain_first;
      *last = row->plain_last;
      return TRUE;
    }
  return FALSE;
}

GArray *
chrono_neuron_metrics_row_times (ChronoNeuronMetrics *m,
                                 gint64               start,
                                 gint64               end)
{
  GArray *times = g_array_sized_new (FALSE, FALSE, sizeof (ChronoNeuronRowTime), m->rows->len);
  const ChronoDeviceWork *d = &g_array_index (m->data->devices, ChronoDeviceWork, m->device);

  for (guint r = 0; r < m->rows->len; r++)
    {
      const Row *row = &g_array_index (m->rows, Row, r);
      ChronoNeuronRowTime t = { row->name, row->dma, 0, 0, 0 };
      guint lo = 0, hi = row->s->positions->len;

      /* The row's first item that starts at START or later. */
      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;

          if (chrono_stream_item (d, row->s, mid)->start < start)
            lo = mid + 1;
          else
            hi = mid;
        }
      for (guint i = lo; i < row->s->positions->len; i++)
        {
          const ChronoWorkItem *it = chrono_stream_item (d, row->s, i);

          if (it->start >= end)
            break;
          t.count++;
          t.instruction_ns += it->end - it->start;
        }
      t.active_ns = chrono_intervals_length_in (row->merged, start, end);
      g_array_append_val (times, t);
    }
  return times;
}
