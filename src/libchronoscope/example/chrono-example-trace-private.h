/* chrono-example-trace-private.h: the example trace generator's state
 * (threads, their CPU records, the buffers and the output) and the
 * writer's functions that the generator calls
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdio.h>
#include <string.h>

#include <zlib.h>

#include "chrono-example-model.h"
#include "chrono-example-trace.h"

G_BEGIN_DECLS

#define MAX_DEPTH         32
#define MAX_STREAMS       8

/* -------------------------------------------------------------------- */
/* Buffers and number formatting                                        */

typedef struct {
  char  *data;
  gsize  len;
  gsize  alloc;
} Buf;

static inline char *
buf_grow (Buf  *b,
          gsize n)
{
  if (G_UNLIKELY (b->len + n > b->alloc))
    {
      b->alloc = MAX (b->alloc * 2, b->len + n + 65536);
      b->data = g_realloc (b->data, b->alloc);
    }
  return b->data + b->len;
}

static inline void
put (Buf        *b,
     const char *s,
     gsize       n)
{
  memcpy (buf_grow (b, n), s, n);
  b->len += n;
}

#define PUT(b, literal) put ((b), "" literal, sizeof (literal) - 1)

static inline void
put_str (Buf        *b,
         const char *s)
{
  put (b, s, strlen (s));
}

static inline void
put_u64 (Buf    *b,
         guint64 v)
{
  char tmp[20];
  char *p = tmp + sizeof tmp;

  do
    {
      *--p = '0' + v % 10;
      v /= 10;
    }
  while (v != 0);
  put (b, p, tmp + sizeof tmp - p);
}

static inline void
put_i64 (Buf   *b,
         gint64 v)
{
  if (v < 0)
    {
      PUT (b, "-");
      put_u64 (b, -(guint64) v);
    }
  else
    put_u64 (b, v);
}

/* V / 10^DIGITS with exactly DIGITS decimals, as Kineto prints times. */
static inline void
put_fixed (Buf    *b,
           guint64 v,
           guint   digits)
{
  static const guint64 scale[] = { 1, 10, 100, 1000, 10000, 100000, 1000000 };
  guint64 frac = v % scale[digits];
  char *p;

  put_u64 (b, v / scale[digits]);
  p = buf_grow (b, digits + 1);
  p[0] = '.';
  for (guint i = digits; i > 0; i--)
    {
      p[i] = '0' + frac % 10;
      frac /= 10;
    }
  b->len += digits + 1;
}

/* Nanoseconds as fractional microseconds: "4203669603018.756". */
static inline void
put_us (Buf   *b,
        gint64 ns)
{
  put_fixed (b, ns, 3);
}

/* -------------------------------------------------------------------- */
/* Output: plain or gzip                                                */

typedef struct {
  FILE       *file;
  const char *path;
  gboolean    gzip;
  z_stream    z;
  guint8     *zout;
  guint64     bytes;        /* uncompressed */
  guint64     file_bytes;   /* as written */
} Sink;

/* -------------------------------------------------------------------- */
/* Simulation state                                                     */

/* CPU events are kept until the step ends, when their durations are known,
 * and then written in start order like Kineto's per-thread buffers. */
typedef enum {
  REC_OP,
  REC_PYTHON,
  REC_MEMORY,
  REC_FLOW_START,
  REC_FLOW_END,
} RecType;

typedef struct {
  RecType          type;
  ChronoExampleCat cat;
  const char      *name;
  const char      *shapes;
  gint64           ts;
  gint64           dur;
  gint64           ev_idx;
  union {
    struct {
      gint64   external_id;
      gint64   sequence;            /* -1 for none */
      gboolean backward_node;       /* adds "Fwd thread id" */
      gint64   collective_nelems;   /* 0 unless record_param_comms */
      gint64   collective_seq;
    } op;
    struct {
      gint64 id;
      gint64 parent;
      gint64 module;                /* -1 unless an nn.Module frame */
    } py;
    struct {
      gint64 addr;
      gint64 bytes;                 /* negative when freed */
      gint64 allocated;
      gint64 reserved;
    } mem;
    gint64 flow_id;
  } u;
} Rec;

/* The GPU copy of an open user annotation: Kineto spans the GPU work the
 * annotation launched on one stream, 1 ns earlier and 2 ns longer. */
typedef struct {
  gint64 external_id;
  guint  stream;
  gint64 first;        /* -1 until some GPU work ran */
  gint64 last;
  const char *name;    /* NULL when none is open */
} Annotation;

typedef struct {
  gint64      tid;
  gint64      t;                 /* ns since the base time */
  GArray     *recs;              /* Rec */
  guint       open[MAX_DEPTH];   /* indices of open spans in recs */
  guint       depth;
  Annotation  annotation;
} Thread;

typedef struct {
  BackwardId backward;
  gint64     sequence;
  gint64     flow_id;
  guint      alloc_mark;      /* activations from here on die with this node */
  guint      bucket_layers;   /* > 0: an all-reduce follows this node */
} TapeEntry;

typedef struct {
  gint64 addr;
  gint64 bytes;
} Alloc;

typedef struct {
  ChronoExampleOptions opts;
  ChronoExampleCounts  counts;
  Sink     sink;
  Buf      out;                  /* header, CPU events, metadata, trailer */
  Buf      gpu;                  /* GPU activity of the current step */
  Buf      gpu_annotations;
  guint64  rng;                  /* timing; differs per rank */
  Thread   main_thread;
  Thread   autograd_thread;
  gint64   pid;
  guint    device;
  guint    n_devices;
  guint    n_layers;
  guint    bucket_layers;
  char   **block_names;          /* "nn.Module: Block_3" */
  char    *ranks;                /* "[0, 1, 2, 3]" */
  guint    stream_ids[MAX_STREAMS + 1];   /* the NCCL stream last */
  gint64   stream_free[MAX_STREAMS + 1];  /* when each stream runs dry */
  guint    next_side;
  gint64   external_id;
  gint64   record_function_offset;
  gint64   ev_idx;
  gint64   sequence;
  gint64   fwdbwd_id;
  gint64   correlation;
  gint64   python_id;
  gint64   collective_seq;
  gint64   allocated;
  gint64   reserved;
  GArray  *allocs;               /* Alloc, live activations in order */
  GArray  *tape;                 /* TapeEntry of the current step */
  gint64   trace_start;
  guint    step;
  char     step_name[32];
} Gen;

/* chrono-example-writer.c */

gboolean chrono_example_sink_open      (Sink             *s,
                                        const char       *path,
                                        gboolean          gzip,
                                        GError          **error);
gboolean chrono_example_sink_write     (Sink             *s,
                                        Buf              *b,
                                        GError          **error);
gboolean chrono_example_sink_finish    (Sink             *s,
                                        GError          **error);
void     chrono_example_sink_close     (Sink             *s);

void     chrono_example_span_header    (Gen              *g,
                                        Buf              *b,
                                        ChronoExampleCat  cat,
                                        const char       *name,
                                        gint64            pid,
                                        gint64            tid,
                                        gint64            ts,
                                        gint64            dur);
void     chrono_example_event_footer   (Buf              *b);
void     chrono_example_write_rec      (Gen              *g,
                                        Buf              *b,
                                        const Thread     *th,
                                        const Rec        *r);
void     chrono_example_write_runtime  (Gen              *g,
                                        Thread           *th,
                                        ApiId             api,
                                        gint64            ts,
                                        gint64            dur,
                                        gint64            correlation,
                                        gint64            external_id,
                                        char              flow_ph);
void     chrono_example_write_gpu_op   (Gen              *g,
                                        const GpuWork    *w,
                                        guint             stream,
                                        gint64            ts,
                                        gint64            dur,
                                        gint64            correlation,
                                        gint64            external_id,
                                        gint64            nelems,
                                        gint64            seq);
void     chrono_example_write_header   (Gen              *g);
void     chrono_example_write_trailer  (Gen              *g);

G_END_DECLS
