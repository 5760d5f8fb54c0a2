/* chrono-neuron-parquet-facts.c
 *
 * Gathering a record's members after the import meant decoding every
 * column of its row group and writing each number as text to parse it
 * again: for a profile's tables, longer than reading them. Here only the
 * members' columns are decoded, once per row group while the importer
 * has it, and numbers stay numbers. What is kept is what the row's JSON
 * text would give once parsed: a number text is correctly rounded both
 * ways, so the value itself is the same double.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "chrono-neuron-parquet-facts.h"
#include "chrono-neuron-parquet-rows.h"

struct _ChronoParquetFacts {
  ChronoParquetFile          *file;
  guint                       n;
  guint                      *at;      /* the file's columns, in its order */
  ChronoNeuronField          *field;
  ChronoParquetColumn        *owned;   /* decoded here */
  const ChronoParquetColumn **col;     /* of the group read: decoded, or NULL */
  /* What each string entry gave, worked out at its first row: a
   * dictionary's few texts stand for most rows. */
  guint8                    **state;   /* per entry: ENTRY_UNSEEN, _NONE or _SET */
  guint64                   **value;   /* per entry: a number's bits or a text's id */
};

enum { ENTRY_UNSEEN, ENTRY_NONE, ENTRY_SET };

ChronoParquetFacts *
chrono_parquet_facts_new (ChronoParquetFile *f)
{
  guint n_cols = chrono_parquet_file_get_n_columns (f);
  g_autofree guint *at = g_new (guint, MAX (n_cols, 1));
  g_autofree ChronoNeuronField *field = g_new (ChronoNeuronField, MAX (n_cols, 1));
  ChronoParquetFacts *pf;
  guint n = 0;

  for (guint c = 0; c < n_cols; c++)
    {
      const char *name = chrono_parquet_file_get_column_name (f, c);
      gint k = chrono_neuron_field_of_key (name, strlen (name));

      if (k >= 0)
        {
          at[n] = c;
          field[n++] = k;
        }
    }
  if (n == 0)
    return NULL;
  pf = g_new0 (ChronoParquetFacts, 1);
  pf->file = f;
  pf->n = n;
  pf->at = g_steal_pointer (&at);
  pf->field = g_steal_pointer (&field);
  pf->owned = g_new0 (ChronoParquetColumn, n);
  pf->col = g_new0 (const ChronoParquetColumn *, n);
  pf->state = g_new0 (guint8 *, n);
  pf->value = g_new0 (guint64 *, n);
  return pf;
}

void
chrono_parquet_facts_clear (ChronoParquetFacts *pf)
{
  for (guint k = 0; k < pf->n; k++)
    {
      if (pf->col[k] == &pf->owned[k])
        chrono_parquet_column_clear (&pf->owned[k]);
      pf->col[k] = NULL;
      g_clear_pointer (&pf->state[k], g_free);
      g_clear_pointer (&pf->value[k], g_free);
    }
}

void
chrono_parquet_facts_free (ChronoParquetFacts *pf)
{
  if (pf == NULL)
    return;
  chrono_parquet_facts_clear (pf);
  g_free (pf->at);
  g_free (pf->field);
  g_free (pf->owned);
  g_free (pf->col);
  g_free (pf->state);
  g_free (pf->value);
  g_free (pf);
}

void
chrono_parquet_facts_read (ChronoParquetFacts        *pf,
                           guint                      group,
                           gint                       shared_at,
                           const ChronoParquetColumn *shared)
{

  chrono_parquet_facts_clear (pf);
  for (guint k = 0; k < pf->n; k++)
    if (shared != NULL && (gint) pf->at[k] == shared_at)
      pf->col[k] = shared;
    /* A column that cannot be read (nested, damaged) is left out. */
    else if (chrono_parquet_file_read_column (pf->file, group, pf->at[k], chrono_parquet_cell_types, &pf->owned[k], NULL))
      pf->col[k] = &pf->owned[k];
  for (guint k = 0; k < pf->n; k++)
    if (pf->col[k] != NULL && pf->col[k]->type == CHRONO_PARQUET_BYTE_ARRAY)
      {
        pf->state[k] = g_new0 (guint8, MAX (pf->col[k]->n_entries, 1));
        pf->value[k] = g_new (guint64, MAX (pf->col[k]->n_entries, 1));
      }
}

/* What the string entry of column K at ROW gives its member. */
static void
entry_cell (ChronoParquetFacts *pf,
            ChronoNeuronFacts  *facts,
            guint               k,
            guint64             row)
{
  const ChronoParquetColumn *col = pf->col[k];
  ChronoNeuronField f = pf->field[k];
  guint32 e = col->v.index[row];
  ChronoNeuronFactRow one = { 0 };
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  g_autofree char *owned = NULL;
  const char *text;
  gsize len;

  if (chrono_parquet_rows_field (col, row, buf, &text, &len, &owned))
    chrono_neuron_facts_set_cell (facts, &one, f, text, len);
  pf->state[k][e] = ENTRY_NONE;
  if (one.present != 0)
    {
      pf->state[k][e] = ENTRY_SET;
      if (f < CHRONO_NEURON_N_NUMBERS)
        memcpy (&pf->value[k][e], &one.number[f], sizeof (guint64));
      else
        pf->value[k][e] = one.text[f - CHRONO_NEURON_N_NUMBERS];
    }
}

void
chrono_parquet_facts_add (ChronoParquetFacts *pf,
                          ChronoNeuronFacts  *facts,
                          guint64             row,
                          guint64             offset)
{
  ChronoNeuronFactRow r = { 0 };

  for (guint k = 0; k < pf->n; k++)
    {
      const ChronoParquetColumn *col = pf->col[k];
      ChronoNeuronField f = pf->field[k];
      char buf[G_ASCII_DTOSTR_BUF_SIZE];
      g_autofree char *owned = NULL;
      const char *text;
      gsize len;

      if (col == NULL || (col->present && !col->present[row]))
        continue;
      if (pf->state[k] != NULL)
        {
          guint32 e = col->v.index[row];

          if (pf->state[k][e] == ENTRY_UNSEEN)
            entry_cell (pf, facts, k, row);
          if (pf->state[k][e] == ENTRY_SET)
            {
              if (f < CHRONO_NEURON_N_NUMBERS)
                memcpy (&r.number[f], &pf->value[k][e], sizeof (guint64));
              else
                r.text[f - CHRONO_NEURON_N_NUMBERS] = (guint32) pf->value[k][e];
              r.present |= 1u << f;
            }
          continue;
        }
      /* The waits are counted in a text, which a number is not. */
      if (f < CHRONO_NEURON_F_SEM_WAITS &&
          (col->type == CHRONO_PARQUET_INT32 || col->type == CHRONO_PARQUET_INT64))
        {
          r.number[f] = (gdouble) col->v.i64[row];
          r.present |= 1u << f;
        }
      else if (f < CHRONO_NEURON_F_SEM_WAITS &&
               (col->type == CHRONO_PARQUET_FLOAT || col->type == CHRONO_PARQUET_DOUBLE))
        {
          /* Not finite is null, as in the row's JSON text. */
          if (isfinite (col->v.f64[row]))
            {
              r.number[f] = col->v.f64[row];
              r.present |= 1u << f;
            }
        }
      else if (chrono_parquet_rows_field (col, row, buf, &text, &len, &owned))
        chrono_neuron_facts_set_cell (facts, &r, f, text, len);
    }
  chrono_neuron_facts_add (facts, offset, &r);
}
