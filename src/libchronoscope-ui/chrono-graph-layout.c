/* chrono-graph-layout.c: a layered (Sugiyama) drawing, left to right in
 * time: columns by longest path with time as a floor, long edges bent
 * through every column they cross, crossings reduced by barycentre sweeps,
 * rows placed by isotonic regression towards the neighbours' mean.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "chrono-graph-layout.h"

/* Bends of long edges, all edges together; beyond this, further long
 * edges are drawn straight and do not take part in the ordering. */
#define MAX_BENDS_PER_NODE 40
#define MAX_BENDS_EXTRA    2000
/* Rounds of moving rows towards their neighbours. */
#define PLACEMENT_ROUNDS   4

struct _ChronoGraphLayout
{
  ChronoGraphLayoutParams params;
  guint              n_nodes;
  guint              n_vertices;     /* nodes, then bends */
  guint              n_layers;
  guint             *layer;          /* per vertex */
  guint             *position;       /* per vertex, within its layer */
  double            *y;              /* per vertex: the centre */
  guint             *layer_start;    /* n_layers + 1 offsets into ORDER */
  guint             *order;          /* the vertices, layer by layer, top to bottom */
  guint             *up_start;       /* CSR: neighbours one layer to the left */
  guint             *up;
  guint             *down_start;     /* and one layer to the right */
  guint             *down;
  guint              n_edges;
  struct _Chain     *chains;         /* per edge */
  guint             *point_start;    /* n_edges + 1 offsets into POINTS */
  ChronoLayoutPoint *points;
  /* Wrapping: columns [b * per_band, (b + 1) * per_band) make band B,
   * whose vertices stand BAND_DY[b] below their unwrapped row. */
  guint              per_band;
  guint              n_bands;
  double            *band_dy;
  double            *band_bottom;    /* per band, wrapped */
  double             margin;         /* the return lanes left and right */
  double             width;
  double             height;
};

typedef struct _Chain
{
  guint a;         /* starts first */
  guint b;
  gboolean reversed; /* the edge runs from B to A */
  guint first_bend;  /* its bends are vertices first_bend .. first_bend + n_bends - 1 */
  guint n_bends;
  gboolean valid;
} Chain;

static void apply_wrap (ChronoGraphLayout *self,
                        double             wrap_width);

void
chrono_graph_layout_params_init (ChronoGraphLayoutParams *params)
{
  params->node_width = 160;
  params->node_height = 40;
  params->layer_gap = 56;
  params->node_gap = 14;
  params->band_gap = 44;
  params->sweeps = 12;
}

static int
compare_by_start (gconstpointer a,
                  gconstpointer b,
                  gpointer      user_data)
{
  const gint64 *start = user_data;
  guint i = *(const guint *) a, j = *(const guint *) b;

  if (start[i] != start[j])
    return start[i] < start[j] ? -1 : 1;
  return i < j ? -1 : (i > j);
}

typedef struct
{
  guint  vertex;
  double key;
  guint  tie;
} Keyed;

static int
compare_keyed (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  const Keyed *x = a, *y = b;

  if (x->key != y->key)
    return x->key < y->key ? -1 : 1;
  return x->tie < y->tie ? -1 : (x->tie > y->tie);
}

/* Builds a CSR list from (from, to) pairs. */
static void
build_csr (guint         n_vertices,
           const guint  *pairs,
           guint         n_pairs,
           gboolean      by_second,
           guint       **start_out,
           guint       **list_out)
{
  guint *start = g_new0 (guint, n_vertices + 1);
  guint *list = g_new (guint, MAX (1, n_pairs));
  guint *fill;

  for (guint i = 0; i < n_pairs; i++)
    start[pairs[2 * i + (by_second ? 1 : 0)] + 1]++;
  for (guint v = 0; v < n_vertices; v++)
    start[v + 1] += start[v];
  fill = g_memdup2 (start, sizeof (guint) * n_vertices);
  for (guint i = 0; i < n_pairs; i++)
    {
      guint key = pairs[2 * i + (by_second ? 1 : 0)];

      list[fill[key]++] = pairs[2 * i + (by_second ? 0 : 1)];
    }
  g_free (fill);
  *start_out = start;
  *list_out = list;
}

static void
assign_layers (ChronoGraphLayout      *self,
               const gint64           *start_ns,
               const Chain            *chains,
               guint                   n_chains,
               guint                  *rank)
{
  g_autofree guint *sorted = g_new (guint, MAX (1, self->n_nodes));
  g_autofree guint *pairs = g_new (guint, 2 * MAX (1, n_chains));
  g_autofree guint *in_start = NULL;
  g_autofree guint *in = NULL;
  guint n_pairs = 0;
  guint floor_layer = 0, group_max = 0;

  for (guint i = 0; i < self->n_nodes; i++)
    sorted[i] = i;
  g_qsort_with_data (sorted, self->n_nodes, sizeof (guint), compare_by_start, (gpointer) start_ns);
  for (guint i = 0; i < self->n_nodes; i++)
    rank[sorted[i]] = i;

  for (guint i = 0; i < n_chains; i++)
    if (chains[i].valid)
      {
        pairs[2 * n_pairs] = chains[i].a;
        pairs[2 * n_pairs + 1] = chains[i].b;
        n_pairs++;
      }
  build_csr (self->n_nodes, pairs, n_pairs, TRUE, &in_start, &in);

  /* Nodes that start at the same time share the floor left by the ones
   * before them; each node stands right of what it depends on. */
  for (guint i = 0; i < self->n_nodes; i++)
    {
      guint v = sorted[i];
      guint layer;

      if (i > 0 && start_ns[v] != start_ns[sorted[i - 1]])
        floor_layer = MAX (floor_layer, group_max);
      layer = floor_layer;
      for (guint k = in_start[v]; k < in_start[v + 1]; k++)
        layer = MAX (layer, self->layer[in[k]] + 1);
      self->layer[v] = layer;
      group_max = MAX (group_max, layer);
      self->n_layers = MAX (self->n_layers, layer + 1);
    }
}

static int
compare_uint (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : (x > y);
}

/* Crossings between layers L and L + 1, counting inversions with a
 * Fenwick TREE over the positions in L + 1; TARGETS is scratch space. */
static guint64
count_layer_crossings (ChronoGraphLayout *self,
                       guint              l,
                       guint             *tree,
                       guint             *targets)
{
  guint n_right = self->layer_start[l + 2] - self->layer_start[l + 1];
  guint64 crossings = 0;
  guint inserted = 0;

  memset (tree, 0, sizeof (guint) * (n_right + 1));
  for (guint i = self->layer_start[l]; i < self->layer_start[l + 1]; i++)
    {
      guint v = self->order[i];
      guint n = self->down_start[v + 1] - self->down_start[v];

      /* This vertex's segments in their own order: they share an end, so
       * they do not cross one another. */
      for (guint k = 0; k < n; k++)
        targets[k] = self->position[self->down[self->down_start[v] + k]];
      g_qsort_with_data (targets, n, sizeof (guint), compare_uint, NULL);
      /* Earlier segments that end below this one's end cross it. */
      for (guint k = 0; k < n; k++)
        {
          guint at_or_above = 0;

          for (guint p = targets[k] + 1; p > 0; p -= p & -p)
            at_or_above += tree[p];
          crossings += inserted - at_or_above;
        }
      for (guint k = 0; k < n; k++)
        {
          for (guint p = targets[k] + 1; p <= n_right; p += p & -p)
            tree[p]++;
          inserted++;
        }
    }
  return crossings;
}

guint64
chrono_graph_layout_count_crossings (ChronoGraphLayout *self)
{
  g_autofree guint *tree = g_new (guint, self->n_vertices + 1);
  g_autofree guint *targets = g_new (guint, MAX (1, self->down_start[self->n_vertices]));
  guint64 crossings = 0;

  for (guint l = 0; l + 1 < self->n_layers; l++)
    crossings += count_layer_crossings (self, l, tree, targets);
  return crossings;
}

/* Sorts layer L by the mean position of each vertex's neighbours in the
 * layer before it in the sweep; a vertex without any keeps its place. */
static void
sort_layer (ChronoGraphLayout *self,
            guint              l,
            gboolean           downwards,
            Keyed             *keyed)
{
  const guint *start = downwards ? self->up_start : self->down_start;
  const guint *list = downwards ? self->up : self->down;
  guint first = self->layer_start[l], n = self->layer_start[l + 1] - first;

  for (guint i = 0; i < n; i++)
    {
      guint v = self->order[first + i];
      guint degree = start[v + 1] - start[v];
      double sum = 0;

      for (guint k = start[v]; k < start[v + 1]; k++)
        sum += self->position[list[k]];
      keyed[i].vertex = v;
      keyed[i].key = degree > 0 ? sum / degree : self->position[v];
      keyed[i].tie = i;
    }
  g_qsort_with_data (keyed, n, sizeof (Keyed), compare_keyed, NULL);
  for (guint i = 0; i < n; i++)
    {
      self->order[first + i] = keyed[i].vertex;
      self->position[keyed[i].vertex] = i;
    }
}

static void
reduce_crossings (ChronoGraphLayout *self)
{
  g_autofree Keyed *keyed = g_new (Keyed, MAX (1, self->n_vertices));
  g_autofree guint *best = g_memdup2 (self->order, sizeof (guint) * MAX (1, self->n_vertices));
  guint64 best_crossings = chrono_graph_layout_count_crossings (self);

  for (guint sweep = 0; sweep < self->params.sweeps && best_crossings > 0; sweep++)
    {
      guint64 crossings;

      if (sweep % 2 == 0)
        for (guint l = 1; l < self->n_layers; l++)
          sort_layer (self, l, TRUE, keyed);
      else
        for (guint l = self->n_layers - 1; l-- > 0;)
          sort_layer (self, l, FALSE, keyed);

      crossings = chrono_graph_layout_count_crossings (self);
      if (crossings < best_crossings)
        {
          best_crossings = crossings;
          memcpy (best, self->order, sizeof (guint) * self->n_vertices);
        }
    }

  memcpy (self->order, best, sizeof (guint) * self->n_vertices);
  for (guint l = 0; l < self->n_layers; l++)
    for (guint i = self->layer_start[l]; i < self->layer_start[l + 1]; i++)
      self->position[self->order[i]] = i - self->layer_start[l];
}

static double
vertex_height (ChronoGraphLayout *self,
               guint              v)
{
  return v < self->n_nodes ? self->params.node_height : 0;
}

/* The least distance between the centres of two neighbours in a column. */
static double
separation (ChronoGraphLayout *self,
            guint              above,
            guint              below)
{
  guint n_real = (above < self->n_nodes) + (below < self->n_nodes);
  double gap = self->params.node_gap * (n_real == 2 ? 1.0 : n_real == 1 ? 0.5 : 0.25);

  return (vertex_height (self, above) + vertex_height (self, below)) / 2 + gap;
}

/* Moves the column's vertices as near as they can to TARGET, in order
 * and apart: least squares under order constraints, by pooling adjacent
 * violators. */
static void
place_column (ChronoGraphLayout *self,
              guint              l,
              const double      *target,
              double            *offset,
              double            *block_sum,
              guint             *block_len)
{
  guint first = self->layer_start[l], n = self->layer_start[l + 1] - first;
  guint n_blocks = 0;
  guint i = 0;

  offset[0] = 0;
  for (guint k = 1; k < n; k++)
    offset[k] = offset[k - 1] + separation (self, self->order[first + k - 1], self->order[first + k]);

  for (guint k = 0; k < n; k++)
    {
      block_sum[n_blocks] = target[k] - offset[k];
      block_len[n_blocks] = 1;
      n_blocks++;
      while (n_blocks > 1 &&
             block_sum[n_blocks - 2] / block_len[n_blocks - 2] > block_sum[n_blocks - 1] / block_len[n_blocks - 1])
        {
          block_sum[n_blocks - 2] += block_sum[n_blocks - 1];
          block_len[n_blocks - 2] += block_len[n_blocks - 1];
          n_blocks--;
        }
    }
  for (guint b = 0; b < n_blocks; b++)
    for (guint k = 0; k < block_len[b]; k++, i++)
      self->y[self->order[first + i]] = block_sum[b] / block_len[b] + offset[i];
}

static void
assign_rows (ChronoGraphLayout *self)
{
  g_autofree double *target = g_new (double, MAX (1, self->n_vertices));
  g_autofree double *offset = g_new (double, MAX (1, self->n_vertices));
  g_autofree double *block_sum = g_new (double, MAX (1, self->n_vertices));
  g_autofree guint *block_len = g_new (guint, MAX (1, self->n_vertices));
  double top = G_MAXDOUBLE;

  /* Packed from the top, in order. */
  for (guint l = 0; l < self->n_layers; l++)
    {
      double y = 0;

      for (guint i = self->layer_start[l]; i < self->layer_start[l + 1]; i++)
        {
          if (i > self->layer_start[l])
            y += separation (self, self->order[i - 1], self->order[i]);
          self->y[self->order[i]] = y;
        }
    }

  for (guint round = 0; round < 2 * PLACEMENT_ROUNDS + 1; round++)
    {
      /* Right, left, ... and last towards both sides at once. */
      gboolean use_up = round % 2 == 0 || round == 2 * PLACEMENT_ROUNDS;
      gboolean use_down = round % 2 == 1 || round == 2 * PLACEMENT_ROUNDS;

      for (guint s = 0; s < self->n_layers; s++)
        {
          guint l = round % 2 == 0 ? s : self->n_layers - 1 - s;
          guint first = self->layer_start[l];

          for (guint i = first; i < self->layer_start[l + 1]; i++)
            {
              guint v = self->order[i];
              double sum = 0;
              guint n = 0;

              if (use_up)
                for (guint k = self->up_start[v]; k < self->up_start[v + 1]; k++, n++)
                  sum += self->y[self->up[k]];
              if (use_down)
                for (guint k = self->down_start[v]; k < self->down_start[v + 1]; k++, n++)
                  sum += self->y[self->down[k]];
              target[i - first] = n > 0 ? sum / n : self->y[v];
            }
          place_column (self, l, target, offset, block_sum, block_len);
        }
    }

  for (guint v = 0; v < self->n_vertices; v++)
    top = MIN (top, self->y[v] - vertex_height (self, v) / 2);
  for (guint v = 0; v < self->n_vertices; v++)
    self->y[v] -= top;
}

static guint
layer_band (ChronoGraphLayout *self,
            guint              l)
{
  return l / self->per_band;
}

static double
layer_x (ChronoGraphLayout *self,
         guint              l)
{
  return self->margin + (l % self->per_band) * (self->params.node_width + self->params.layer_gap);
}

/* Vertex V's centre, down, in the wrapped drawing. */
static double
vertex_y (ChronoGraphLayout *self,
          guint              v)
{
  return self->y[v] + self->band_dy[layer_band (self, self->layer[v])];
}

/* From the right side of a column at Y1 to the left side of a later
 * column at Y2 (both wrapped): straight within a band; from one band to a
 * later one out along its row to the right lane, down to the gap below
 * the band, back left along the gap, down the left lane and in. */
static void
add_hop (ChronoGraphLayout *self,
         GArray            *points,
         guint              from_layer,
         double             y1,
         guint              to_layer,
         double             y2)
{
  guint band = layer_band (self, from_layer);
  double right = self->width - self->margin / 2, left = self->margin / 2;
  double gap_y = self->band_bottom[band] + self->params.band_gap / 2;

  if (band == layer_band (self, to_layer))
    return;
  g_array_append_vals (points, (ChronoLayoutPoint[]) {
                         { right, y1 }, { right, gap_y }, { left, gap_y }, { left, y2 } }, 4);
}

static void
build_edge_points (ChronoGraphLayout *self)
{
  g_autoptr(GArray) points = g_array_new (FALSE, FALSE, sizeof (ChronoLayoutPoint));

  g_clear_pointer (&self->point_start, g_free);
  g_clear_pointer (&self->points, g_free);
  self->point_start = g_new0 (guint, self->n_edges + 1);
  for (guint e = 0; e < self->n_edges; e++)
    {
      const Chain *chain = &self->chains[e];
      guint first = points->len, n, previous;

      if (chain->valid)
        {
          /* Out of the right side of the earlier node, through each column
           * it crosses, into the left side of the later one. */
          g_array_append_val (points, ((ChronoLayoutPoint) { layer_x (self, self->layer[chain->a]) + self->params.node_width,
                                                             vertex_y (self, chain->a) }));
          previous = chain->a;
          for (guint k = 0; k <= chain->n_bends; k++)
            {
              guint v = k < chain->n_bends ? chain->first_bend + k : chain->b;
              ChronoLayoutPoint in = { layer_x (self, self->layer[v]), vertex_y (self, v) };

              add_hop (self, points, self->layer[previous], vertex_y (self, previous), self->layer[v], in.y);
              g_array_append_val (points, in);
              if (k < chain->n_bends)
                g_array_append_val (points, ((ChronoLayoutPoint) { in.x + self->params.node_width, in.y }));
              previous = v;
            }
          n = points->len - first;
          if (chain->reversed)
            for (guint k = 0; k < n / 2; k++)
              {
                ChronoLayoutPoint *p = &g_array_index (points, ChronoLayoutPoint, first);
                ChronoLayoutPoint t = p[k];

                p[k] = p[n - 1 - k];
                p[n - 1 - k] = t;
              }
        }
      self->point_start[e + 1] = points->len;
    }
  self->points = (ChronoLayoutPoint *) g_array_free (g_steal_pointer (&points), FALSE);
}

/* Bands of the columns that fit in WRAP_WIDTH (all of them for 0), one
 * under another, each as tall as its vertices reach. */
static void
apply_wrap (ChronoGraphLayout *self,
            double             wrap_width)
{
  double step = self->params.node_width + self->params.layer_gap;
  double lane = self->params.layer_gap / 2;
  g_autofree double *band_top = NULL;
  double y = 0;

  self->per_band = MAX (1, self->n_layers);
  self->margin = 0;
  if (wrap_width > 0)
    {
      guint fit = (guint) MAX (1, floor ((wrap_width - 2 * lane + self->params.layer_gap) / step));

      if (fit < self->n_layers)
        {
          self->per_band = fit;
          self->margin = lane;
        }
    }
  self->n_bands = self->n_layers > 0 ? (self->n_layers + self->per_band - 1) / self->per_band : 1;

  g_free (self->band_dy);
  g_free (self->band_bottom);
  self->band_dy = g_new0 (double, self->n_bands);
  self->band_bottom = g_new0 (double, self->n_bands);
  band_top = g_new (double, self->n_bands);
  for (guint b = 0; b < self->n_bands; b++)
    {
      band_top[b] = G_MAXDOUBLE;
      self->band_bottom[b] = -G_MAXDOUBLE;
    }
  for (guint v = 0; v < self->n_vertices; v++)
    {
      guint b = layer_band (self, self->layer[v]);

      band_top[b] = MIN (band_top[b], self->y[v] - vertex_height (self, v) / 2);
      self->band_bottom[b] = MAX (self->band_bottom[b], self->y[v] + vertex_height (self, v) / 2);
    }
  for (guint b = 0; b < self->n_bands; b++)
    {
      if (band_top[b] > self->band_bottom[b])
        band_top[b] = self->band_bottom[b] = 0;
      if (b > 0)
        y += self->params.band_gap;
      self->band_dy[b] = y - band_top[b];
      y += self->band_bottom[b] - band_top[b];
      self->band_bottom[b] = y;
    }
  self->height = self->n_vertices > 0 ? y : 0;
  self->width = self->n_layers > 0
    ? 2 * self->margin + self->per_band * self->params.node_width + (self->per_band - 1) * self->params.layer_gap
    : 0;
  build_edge_points (self);
}

ChronoGraphLayout *
chrono_graph_layout_new (guint                          n_nodes,
                         const gint64                  *start_ns,
                         guint                          n_edges,
                         const ChronoLayoutEdge        *edges,
                         const ChronoGraphLayoutParams *params)
{
  ChronoGraphLayout *self = g_new0 (ChronoGraphLayout, 1);
  Chain *chains = g_new0 (Chain, MAX (1, n_edges));
  g_autofree guint *rank = g_new (guint, MAX (1, n_nodes));
  g_autofree guint *segments = NULL;
  guint n_segments = 0, n_bends = 0;
  guint max_bends = MAX_BENDS_PER_NODE * n_nodes + MAX_BENDS_EXTRA;

  g_return_val_if_fail (n_nodes == 0 || start_ns != NULL, NULL);
  g_return_val_if_fail (n_edges == 0 || edges != NULL, NULL);

  if (params != NULL)
    self->params = *params;
  else
    chrono_graph_layout_params_init (&self->params);
  self->n_nodes = n_nodes;
  self->n_edges = n_edges;
  self->chains = chains;
  self->layer = g_new0 (guint, MAX (1, n_nodes));

  /* Each edge from the node that starts first, so there is no cycle. */
  for (guint e = 0; e < n_edges; e++)
    {
      guint from = edges[e].from, to = edges[e].to;

      if (from >= n_nodes || to >= n_nodes || from == to)
        continue;
      chains[e].valid = TRUE;
      chains[e].reversed = compare_by_start (&to, &from, (gpointer) start_ns) < 0;
      chains[e].a = chains[e].reversed ? to : from;
      chains[e].b = chains[e].reversed ? from : to;
    }
  assign_layers (self, start_ns, chains, n_edges, rank);

  /* A bend per column a long edge crosses, while the budget lasts. */
  for (guint e = 0; e < n_edges; e++)
    {
      guint span;

      if (!chains[e].valid)
        continue;
      span = self->layer[chains[e].b] - self->layer[chains[e].a];
      if (span > 1 && n_bends + span - 1 <= max_bends)
        {
          chains[e].first_bend = n_nodes + n_bends;
          chains[e].n_bends = span - 1;
          n_bends += span - 1;
        }
    }
  self->n_vertices = n_nodes + n_bends;
  self->layer = g_renew (guint, self->layer, MAX (1, self->n_vertices));
  self->position = g_new0 (guint, MAX (1, self->n_vertices));
  self->y = g_new0 (double, MAX (1, self->n_vertices));

  /* Segments between neighbouring columns. */
  segments = g_new (guint, 2 * MAX (1, n_edges + n_bends));
  for (guint e = 0; e < n_edges; e++)
    {
      const Chain *chain = &chains[e];
      guint previous;

      if (!chain->valid)
        continue;
      for (guint k = 0; k < chain->n_bends; k++)
        self->layer[chain->first_bend + k] = self->layer[chain->a] + 1 + k;
      if (chain->n_bends == 0 && self->layer[chain->b] != self->layer[chain->a] + 1)
        continue;  /* drawn straight */
      previous = chain->a;
      for (guint k = 0; k <= chain->n_bends; k++)
        {
          guint next = k < chain->n_bends ? chain->first_bend + k : chain->b;

          segments[2 * n_segments] = previous;
          segments[2 * n_segments + 1] = next;
          n_segments++;
          previous = next;
        }
    }
  build_csr (self->n_vertices, segments, n_segments, TRUE, &self->up_start, &self->up);
  build_csr (self->n_vertices, segments, n_segments, FALSE, &self->down_start, &self->down);

  /* Columns in time order to begin with; a bend sits with the node its
   * edge comes from. */
  {
    g_autofree Keyed *keyed = g_new (Keyed, MAX (1, self->n_vertices));

    for (guint v = 0; v < self->n_vertices; v++)
      {
        keyed[v].vertex = v;
        keyed[v].key = self->layer[v];
        keyed[v].tie = v;
      }
    for (guint v = 0; v < n_nodes; v++)
      keyed[v].tie = rank[v];
    for (guint e = 0; e < n_edges; e++)
      for (guint k = 0; k < chains[e].n_bends; k++)
        keyed[chains[e].first_bend + k].tie = rank[chains[e].a];
    /* Stable: a node comes before the bends that share its rank. */
    g_qsort_with_data (keyed, self->n_vertices, sizeof (Keyed), compare_keyed, NULL);

    self->order = g_new (guint, MAX (1, self->n_vertices));
    self->layer_start = g_new0 (guint, self->n_layers + 1);
    for (guint i = 0; i < self->n_vertices; i++)
      {
        guint v = keyed[i].vertex;

        self->order[i] = v;
        self->layer_start[self->layer[v] + 1]++;
      }
    for (guint l = 0; l < self->n_layers; l++)
      self->layer_start[l + 1] += self->layer_start[l];
    for (guint l = 0; l < self->n_layers; l++)
      for (guint i = self->layer_start[l]; i < self->layer_start[l + 1]; i++)
        self->position[self->order[i]] = i - self->layer_start[l];
  }

  reduce_crossings (self);
  assign_rows (self);
  apply_wrap (self, 0);
  return self;
}

void
chrono_graph_layout_free (ChronoGraphLayout *self)
{
  if (self == NULL)
    return;
  g_free (self->layer);
  g_free (self->position);
  g_free (self->y);
  g_free (self->layer_start);
  g_free (self->order);
  g_free (self->up_start);
  g_free (self->up);
  g_free (self->down_start);
  g_free (self->down);
  g_free (self->chains);
  g_free (self->point_start);
  g_free (self->points);
  g_free (self->band_dy);
  g_free (self->band_bottom);
  g_free (self);
}

guint
chrono_graph_layout_get_n_layers (ChronoGraphLayout *self)
{
  return self->n_layers;
}

guint
chrono_graph_layout_get_layer (ChronoGraphLayout *self,
                               guint              node)
{
  g_return_val_if_fail (node < self->n_nodes, 0);
  return self->layer[node];
}

guint
chrono_graph_layout_get_position (ChronoGraphLayout *self,
                                  guint              node)
{
  g_return_val_if_fail (node < self->n_nodes, 0);
  return self->position[node];
}

void
chrono_graph_layout_get_node_origin (ChronoGraphLayout *self,
                                     guint              node,
                                     double            *x,
                                     double            *y)
{
  g_return_if_fail (node < self->n_nodes);
  *x = layer_x (self, self->layer[node]);
  *y = vertex_y (self, node) - self->params.node_height / 2;
}

void
chrono_graph_layout_set_wrap_width (ChronoGraphLayout *self,
                                    double             width)
{
  apply_wrap (self, width);
}

guint
chrono_graph_layout_get_n_bands (ChronoGraphLayout *self)
{
  return self->n_bands;
}

guint
chrono_graph_layout_get_band (ChronoGraphLayout *self,
                              guint              node)
{
  g_return_val_if_fail (node < self->n_nodes, 0);
  return layer_band (self, self->layer[node]);
}

double
chrono_graph_layout_get_band_bottom (ChronoGraphLayout *self,
                                     guint              band)
{
  g_return_val_if_fail (band < self->n_bands, 0);
  return self->band_bottom[band];
}

gboolean
chrono_graph_layout_edge_is_long (ChronoGraphLayout *self,
                                  guint              edge)
{
  g_return_val_if_fail (edge < self->n_edges, FALSE);
  return self->chains[edge].n_bends > 0;
}

void
chrono_graph_layout_get_size (ChronoGraphLayout *self,
                              double            *width,
                              double            *height)
{
  *width = self->width;
  *height = self->height;
}

const ChronoLayoutPoint *
chrono_graph_layout_get_edge_points (ChronoGraphLayout *self,
                                     guint              edge,
                                     guint             *n_points)
{
  g_return_val_if_fail (edge < self->n_edges, NULL);

  *n_points = self->point_start[edge + 1] - self->point_start[edge];
  return *n_points > 0 ? self->points + self->point_start[edge] : NULL;
}
