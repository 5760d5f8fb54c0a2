/* chrono-memory-findings.c: leaks, fragmentation, a full device and large
 * temporaries, each with its evidence
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <glib/gi18n-lib.h>

#include "chrono-analysis.h"
#include "chrono-format.h"
#include "chrono-memory-private.h"

#define MIB (G_GINT64_CONSTANT (1) << 20)
/* Growth smaller than this (or than a hundredth of the peak) is noise. */
#define GROWTH_MIN_BYTES MIB
#define FRAGMENTATION_MIN_BYTES (64 * MIB)
#define FRAGMENTATION_PERCENT 30
#define CAPACITY_PERCENT 90
#define TEMPORARY_PERCENT 20

void
chrono_memory_finding_clear (ChronoMemoryFinding *f)
{
  g_free (f->title);
  g_free (f->recommendation);
  g_strfreev (f->evidence_keys);
  g_free (f->evidence_values);
}

/* The scale memory findings share: the share of the peak they concern. */
static ChronoSeverity
severity_of (gdouble share)
{
  return share >= 0.5 ? CHRONO_SEVERITY_HIGH : share >= 0.2 ? CHRONO_SEVERITY_MEDIUM : CHRONO_SEVERITY_LOW;
}

static ChronoMemoryFinding *
add_finding (GArray     *findings,
             const char *rule,
             guint       device,
             gdouble     share,
             gint64      start_ns,
             gint64      end_ns)
{
  ChronoMemoryFinding f = { rule, device, severity_of (share), NULL, start_ns, end_ns };

  f.evidence_keys = g_new0 (char *, 1);
  g_array_append_val (findings, f);
  return &g_array_index (findings, ChronoMemoryFinding, findings->len - 1);
}

static void
add_evidence (ChronoMemoryFinding *f,
              const char          *key,
              gdouble              value)
{
  f->evidence_keys = g_renew (char *, f->evidence_keys, f->n_evidence + 2);
  f->evidence_values = g_renew (gdouble, f->evidence_values, f->n_evidence + 1);
  f->evidence_keys[f->n_evidence] = g_strdup (key);
  f->evidence_values[f->n_evidence] = value;
  f->evidence_keys[++f->n_evidence] = NULL;
}

/* The operator whose allocations of CATEGORY made from FROM_NS on and
 * alive at AT_NS hold the most bytes. */
static guint32
top_operator (const ChronoMemoryDevice *d,
              ChronoMemoryCategory      category,
              gint64                    from_ns,
              gint64                    at_ns,
              gint64                   *bytes)
{
  g_autoptr(GHashTable) by_op = g_hash_table_new (NULL, NULL);
  GHashTableIter it;
  gpointer key, value;
  guint32 best = CHRONO_NO_STRING;

  *bytes = 0;
  for (guint k = 0; k < d->allocations->len; k++)
    {
      const ChronoMemoryAllocation *a = &g_array_index (d->allocations, ChronoMemoryAllocation, k);
      gint64 sum;

      if (a->category != category || a->alloc_ns < from_ns || a->alloc_ns > at_ns ||
          (a->free_ns >= 0 && a->free_ns <= at_ns) || a->op_name == CHRONO_NO_STRING)
        continue;
      /* Sums are kept in the table as pointers: 64-bit values fit. */
      sum = GPOINTER_TO_SIZE (g_hash_table_lookup (by_op, GUINT_TO_POINTER (a->op_name))) + a->bytes;
      g_hash_table_insert (by_op, GUINT_TO_POINTER (a->op_name), GSIZE_TO_POINTER (sum));
    }
  g_hash_table_iter_init (&it, by_op);
  while (g_hash_table_iter_next (&it, &key, &value))
    if ((gint64) GPOINTER_TO_SIZE (value) > *bytes)
      {
        *bytes = GPOINTER_TO_SIZE (value);
        best = GPOINTER_TO_UINT (key);
      }
  return best;
}

static void
find_growth (ChronoTrace              *trace,
             const ChronoMemoryDevice *d,
             guint                     index,
             GArray                   *findings)
{
  const ChronoMemoryStep *first, *last;
  gint64 growth, kept = 0;
  guint rising = 0;
  guint32 op = CHRONO_NO_STRING;
  g_autofree char *per_step = NULL;
  g_autofree char *total = NULL;
  ChronoMemoryFinding *f;

  if (d->steps->len < 3)
    return;
  first = &g_array_index (d->steps, ChronoMemoryStep, 0);
  last = &g_array_index (d->steps, ChronoMemoryStep, d->steps->len - 1);
  growth = last->end_bytes - first->end_bytes;
  for (guint k = 1; k < d->steps->len; k++)
    rising += g_array_index (d->steps, ChronoMemoryStep, k).end_bytes > g_array_index (d->steps, ChronoMemoryStep, k - 1).end_bytes;
  /* Steady growth: most steps end higher than the one before. */
  if (growth < MAX (GROWTH_MIN_BYTES, d->peak_allocated_bytes / 100) || 3 * rising < 2 * (d->steps->len - 1))
    return;
  /* What the steps after the first made and kept to the end of the last. */
  if (d->has_addresses)
    op = top_operator (d, CHRONO_MEMORY_ACROSS_STEPS, first->end_ns, last->end_ns - 1, &kept);

  per_step = chrono_format_bytes (growth / (d->steps->len - 1));
  total = chrono_format_bytes (growth);
  f = add_finding (findings, "memory-growth", index, (gdouble) growth / MAX (d->peak_allocated_bytes, 1),
                   first->end_ns, last->end_ns);
  if (op != CHRONO_NO_STRING)
    {
      g_autofree char *kept_text = chrono_format_bytes (kept);
      f->title = g_strdup_printf (_("%s grows %s a step over %u steps (%s); %s kept %s of it"),
                                  d->label, per_step, d->steps->len, total,
                                  chrono_trace_get_string (trace, op), kept_text);
      f->op_name = op;
    }
  else
    f->title = g_strdup_printf (_("%s grows %s a step over %u steps (%s)"), d->label, per_step, d->steps->len, total);
  add_evidence (f, "steps", d->steps->len);
  add_evidence (f, "steps_ending_higher", rising);
  add_evidence (f, "first_step_end_bytes", first->end_bytes);
  add_evidence (f, "last_step_end_bytes", last->end_bytes);
  add_evidence (f, "growth_bytes", growth);
  if (op != CHRONO_NO_STRING)
    add_evidence (f, "kept_by_operator_bytes", kept);
  f->recommendation = g_strdup (_("Tensors are kept from step to step: look for losses or outputs appended to a list without .detach() or .item(), caches that grow, and graphs held by retain_graph=True."));
}

static void
find_fragmentation (const ChronoMemoryDevice *d,
                    guint                     index,
                    GArray                   *findings)
{
  gint64 gap = d->reserved_at_peak_bytes - d->peak_allocated_bytes;
  g_autoptr(GHashTable) sizes = NULL;
  g_autofree char *gap_text = NULL;
  g_autofree char *reserved_text = NULL;
  ChronoMemoryFinding *f;

  if (!d->has_totals || gap < FRAGMENTATION_MIN_BYTES || 100 * gap < FRAGMENTATION_PERCENT * d->reserved_at_peak_bytes)
    return;
  sizes = g_hash_table_new (g_int64_hash, g_int64_equal);
  for (guint k = 0; k < d->allocations->len; k++)
    g_hash_table_add (sizes, &g_array_index (d->allocations, ChronoMemoryAllocation, k).bytes);

  gap_text = chrono_format_bytes (gap);
  reserved_text = chrono_format_bytes (d->reserved_at_peak_bytes);
  f = add_finding (findings, "memory-fragmentation", index, (gdouble) gap / d->reserved_at_peak_bytes,
                   d->peak_ns, d->peak_ns);
  f->title = g_strdup_printf (_("%s reserves %s at its peak, %s more than it has allocated"),
                              d->label, reserved_text, gap_text);
  add_evidence (f, "reserved_at_peak_bytes", d->reserved_at_peak_bytes);
  add_evidence (f, "peak_allocated_bytes", d->peak_allocated_bytes);
  add_evidence (f, "unused_reserved_bytes", gap);
  if (d->has_addresses)
    add_evidence (f, "distinct_allocation_sizes", g_hash_table_size (sizes));
  f->recommendation = g_strdup (_("The caching allocator holds blocks it cannot reuse: set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True, make fewer distinct tensor sizes (pad varying lengths to a few buckets), or free caches before the peak."));
}

static void
find_capacity (const ChronoMemoryDevice *d,
               guint                     index,
               GArray                   *findings)
{
  gint64 used = d->has_totals ? d->peak_reserved_bytes : d->peak_allocated_bytes;
  g_autofree char *used_text = NULL;
  g_autofree char *capacity_text = NULL;
  ChronoMemoryFinding *f;

  if (d->capacity_bytes <= 0 || 100 * used < CAPACITY_PERCENT * d->capacity_bytes)
    return;
  used_text = chrono_format_bytes (used);
  capacity_text = chrono_format_bytes (d->capacity_bytes);
  f = add_finding (findings, "memory-near-capacity", index, (gdouble) used / d->capacity_bytes,
                   d->has_totals ? d->peak_reserved_ns : d->peak_ns, d->has_totals ? d->peak_reserved_ns : d->peak_ns);
  f->title = g_strdup_printf (_("%s uses %s of its %s at its peak"), d->label, used_text, capacity_text);
  add_evidence (f, d->has_totals ? "peak_reserved_bytes" : "peak_allocated_bytes", used);
  add_evidence (f, "capacity_bytes", d->capacity_bytes);
  f->recommendation = g_strdup (_("The next larger batch or sequence will not fit: use activation checkpointing, a smaller micro-batch with gradient accumulation, lower precision, or shard the optimizer state."));
}

static void
find_temporaries (ChronoTrace              *trace,
                  const ChronoMemoryDevice *d,
                  guint                     index,
                  GArray                   *findings)
{
  gint64 bytes = 0, op_bytes;
  guint32 op;
  g_autofree char *bytes_text = NULL;
  ChronoMemoryFinding *f;

  for (guint k = 0; k < d->by_category->len; k++)
    if (g_array_index (d->by_category, ChronoMemoryGroup, k).name == CHRONO_MEMORY_TEMPORARY)
      bytes = g_array_index (d->by_category, ChronoMemoryGroup, k).bytes;
  if (d->peak_allocated_bytes <= 0 || 100 * bytes < TEMPORARY_PERCENT * d->peak_allocated_bytes)
    return;
  op = top_operator (d, CHRONO_MEMORY_TEMPORARY, G_MININT64, d->peak_ns, &op_bytes);
  bytes_text = chrono_format_bytes (bytes);
  f = add_finding (findings, "memory-large-temporaries", index, (gdouble) bytes / d->peak_allocated_bytes,
                   d->peak_ns, d->peak_ns);
  f->title = g_strdup_printf (_("%s of the peak of %s are temporaries of %s"), bytes_text, d->label,
                              op != CHRONO_NO_STRING ? chrono_trace_get_string (trace, op) : _("unknown operators"));
  f->op_name = op;
  add_evidence (f, "temporary_bytes_at_peak", bytes);
  add_evidence (f, "peak_allocated_bytes", d->peak_allocated_bytes);
  add_evidence (f, "operator_bytes", op_bytes);
  f->recommendation = g_strdup (_("The peak is set by scratch memory an operator frees before it returns: run it on smaller chunks, choose an implementation with less workspace (a fused or memory-efficient kernel), or move it away from the peak."));
}

void
chrono_memory_find_issues (ChronoTrace              *trace,
                           const ChronoMemoryDevice *device,
                           guint                     index,
                           GArray                   *findings)
{
  find_growth (trace, device, index, findings);
  find_fragmentation (device, index, findings);
  find_capacity (device, index, findings);
  find_temporaries (trace, device, index, findings);
}
