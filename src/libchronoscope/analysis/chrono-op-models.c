/* chrono-op-models.c: FLOPs and bytes of one operator call, from its shapes
 *
 * The formulas and their sources are in docs/efficiency.md.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <math.h>
#include <string.h>

#include "chrono-op-models.h"
#include "chrono-json-scanner.h"
#include "chrono-op-inputs.h"

#define MAX_INPUTS 32
#define MAX_RANK   8

typedef struct {
  gint        n_dims;      /* -1: not one tensor (a list, or too many dimensions) */
  gint64      dims[MAX_RANK];
  ChronoDtype dtype;
  gdouble     size;        /* bytes per element, 0 when unknown */
} Tensor;

typedef struct {
  guint       n;
  Tensor      in[MAX_INPUTS];
  guint       n_concrete;
  const char *concrete[MAX_INPUTS];  /* each string's text, without quotes */
  gsize       concrete_len[MAX_INPUTS];
} Inputs;

typedef enum {
  FAMILY_GEMM,
  FAMILY_CONV,
  FAMILY_CONV_BACKWARD,
  FAMILY_ATTENTION,
  FAMILY_ATTENTION_BACKWARD,
  FAMILY_ELEMENTWISE,
  FAMILY_REDUCTION,
  FAMILY_NORM,
  FAMILY_NORM_BACKWARD,
  FAMILY_SOFTMAX,
  FAMILY_SOFTMAX_BACKWARD,
} Family;

/* Positions of the inputs a model reads; -1 for none. */
typedef struct {
  const char *name;
  Family      family;
  gint8       a, b, c;     /* GEMM: A, B, bias. Attention: query, key, value. Conv: input, weight. */
  gint8       flag;        /* attention: is_causal (or the mask type); conv: stride, then padding, dilation */
  gint8       varlen;      /* attention: cumulative sequence lengths, whose presence means packed sequences */
  gboolean    bshd;        /* attention: (batch, sequence, heads, dim) rather than (batch, heads, sequence, dim) */
  gboolean    mask_type;   /* attention: FLAG is a mask type (0 none) rather than a boolean */
  gint8       n_args;      /* element-wise: the functional form's arguments; one more is an out= tensor */
} Model;

static const Model models[] = {
  { "aten::mm", FAMILY_GEMM, 0, 1, -1, -1, -1, FALSE, FALSE },
  { "aten::addmm", FAMILY_GEMM, 1, 2, 0, -1, -1, FALSE, FALSE },
  { "aten::_addmm_activation", FAMILY_GEMM, 1, 2, 0, -1, -1, FALSE, FALSE },
  { "aten::bmm", FAMILY_GEMM, 0, 1, -1, -1, -1, FALSE, FALSE },
  { "aten::baddbmm", FAMILY_GEMM, 1, 2, 0, -1, -1, FALSE, FALSE },
  { "aten::_scaled_mm", FAMILY_GEMM, 0, 1, -1, -1, -1, FALSE, FALSE },

  /* stride at FLAG, padding and dilation after it */
  { "aten::conv1d", FAMILY_CONV, 0, 1, 2, 3, -1, FALSE, FALSE },
  { "aten::conv2d", FAMILY_CONV, 0, 1, 2, 3, -1, FALSE, FALSE },
  { "aten::conv3d", FAMILY_CONV, 0, 1, 2, 3, -1, FALSE, FALSE },
  { "aten::convolution", FAMILY_CONV, 0, 1, 2, 3, -1, FALSE, FALSE },
  { "aten::_convolution", FAMILY_CONV, 0, 1, 2, 3, -1, FALSE, FALSE },
  /* cudnn_convolution (self, weight, padding, stride, dilation, …): stride first below */
  { "aten::cudnn_convolution", FAMILY_CONV, 0, 1, -1, 3, -1, FALSE, FALSE },
  { "aten::convolution_backward", FAMILY_CONV_BACKWARD, 1, 2, 0, -1, -1, FALSE, FALSE },

  { "aten::scaled_dot_product_attention", FAMILY_ATTENTION, 0, 1, 2, 5, -1, FALSE, FALSE },
  { "aten::_scaled_dot_product_flash_attention", FAMILY_ATTENTION, 0, 1, 2, 4, -1, FALSE, FALSE },
  { "aten::_scaled_dot_product_flash_attention_for_cpu", FAMILY_ATTENTION, 0, 1, 2, 4, -1, FALSE, FALSE },
  { "aten::_scaled_dot_product_efficient_attention", FAMILY_ATTENTION, 0, 1, 2, 6, -1, FALSE, FALSE },
  { "aten::_scaled_dot_product_cudnn_attention", FAMILY_ATTENTION, 0, 1, 2, 6, -1, FALSE, FALSE },
  { "aten::_flash_attention_forward", FAMILY_ATTENTION, 0, 1, 2, 8, 3, TRUE, FALSE },
  { "aten::_efficient_attention_forward", FAMILY_ATTENTION, 0, 1, 2, 9, 4, TRUE, TRUE },
  { "flash_attn::_flash_attn_forward", FAMILY_ATTENTION, 0, 1, 2, 5, -1, TRUE, FALSE },
  { "aten::_scaled_dot_product_flash_attention_backward", FAMILY_ATTENTION_BACKWARD, 1, 2, 3, 11, -1, FALSE, FALSE },
  { "aten::_scaled_dot_product_efficient_attention_backward", FAMILY_ATTENTION_BACKWARD, 1, 2, 3, 11, -1, FALSE, FALSE },
  { "aten::_scaled_dot_product_cudnn_attention_backward", FAMILY_ATTENTION_BACKWARD, 1, 2, 3, 14, -1, FALSE, FALSE },
  { "aten::_flash_attention_backward", FAMILY_ATTENTION_BACKWARD, 1, 2, 3, 11, 6, TRUE, FALSE },
  { "aten::_efficient_attention_backward", FAMILY_ATTENTION_BACKWARD, 1, 2, 3, 14, 6, TRUE, TRUE },
  { "flash_attn::_flash_attn_backward", FAMILY_ATTENTION_BACKWARD, 1, 2, 3, 11, -1, TRUE, FALSE },

  { "aten::add", FAMILY_ELEMENTWISE, -1, -1, -1, -1, -1, FALSE, FALSE, 3 },
  { "aten::add_", FAMILY_ELEMENTWISE, -1, -1, -1, -1, -1, FALSE, FALSE, 3 },
  { "aten::sub", FAMILY_ELEMENTWISE, -1, -1, -1, -1, -1, FALSE, FALSE, 3 },
  { "aten::sub_", FAMILY_ELEMENTWISE, -1, -1, -1, -1, -1, FALSE, FALSE, 3 },
  { "aten::mul", FAMILY_ELEMENTWISE, -1, -1, -1, -1, -1, FALSE, FALSE, 2 },
  { "aten::mul_", FAMILY_ELEMENTWISE, -1, -1, -1, -1, -1, FALSE, FALSE, 2 },
  { "aten::div", FAMILY_ELEMENTWISE, -1, -1, -1, -1, -1, FALSE, FALSE, 2 },
  { "aten::div_", FAMILY_ELEMENTWISE, -1, -1, -1, -1, -1, FALSE, FALSE, 2 },
  { "aten::neg", FAMILY_ELEMENTWISE, -1, -1, -1, -1, -1, FALSE, FALSE, 1 },
  { "aten::exp", FAMILY_ELEMENTWISE, -1, -1, -1, -1, -1, FALSE, FALSE, 1 },
  { "aten::sqrt", FAMILY_ELEMENTWISE, -1, -1, -1, -1, -1, FALSE, FALSE, 1 },
  { "aten::rsqrt", FAMILY_ELEMENTWISE, -1, -1, -1, -1, -1, FALSE, FALSE, 1 },
  { "aten::pow", FAMILY_ELEMENTWISE, -1, -1, -1, -1, -1, FALSE, FALSE, 2 },
  { "aten::where", FAMILY_ELEMENTWISE, -1, -1, -1, -1, -1, FALSE, FALSE, 3 },
  { "aten::clamp", FAMILY_ELEMENTWISE, -1, -1, -1, -1, -1, FALSE, FALSE, 3 },
  { "aten::relu", FAMILY_ELEMENTWISE, -1, -1, -1, -1, -1, FALSE, FALSE, 1 },
  { "aten::relu_", FAMILY_ELEMENTWISE, -1, -1, -1, -1, -1, FALSE, FALSE, 1 },
  { "aten::gelu", FAMILY_ELEMENTWISE, -1, -1, -1, -1, -1, FALSE, FALSE, 2 },
  { "aten::silu", FAMILY_ELEMENTWISE, -1, -1, -1, -1, -1, FALSE, FALSE, 1 },
  { "aten::silu_", FAMILY_ELEMENTWISE, -1, -1, -1, -1, -1, FALSE, FALSE, 1 },
  { "aten::sigmoid", FAMILY_ELEMENTWISE, -1, -1, -1, -1, -1, FALSE, FALSE, 1 },
  { "aten::tanh", FAMILY_ELEMENTWISE, -1, -1, -1, -1, -1, FALSE, FALSE, 1 },
  { "aten::dropout", FAMILY_ELEMENTWISE, -1, -1, -1, -1, -1, FALSE, FALSE, 3 },
  { "aten::native_dropout", FAMILY_ELEMENTWISE, -1, -1, -1, -1, -1, FALSE, FALSE, 3 },
  { "aten::threshold_backward", FAMILY_ELEMENTWISE, -1, -1, -1, -1, -1, FALSE, FALSE, 3 },
  { "aten::gelu_backward", FAMILY_ELEMENTWISE, -1, -1, -1, -1, -1, FALSE, FALSE, 3 },
  { "aten::silu_backward", FAMILY_ELEMENTWISE, -1, -1, -1, -1, -1, FALSE, FALSE, 2 },
  { "aten::sigmoid_backward", FAMILY_ELEMENTWISE, -1, -1, -1, -1, -1, FALSE, FALSE, 2 },
  { "aten::native_dropout_backward", FAMILY_ELEMENTWISE, -1, -1, -1, -1, -1, FALSE, FALSE, 3 },

  { "aten::sum", FAMILY_REDUCTION, -1, -1, -1, -1, -1, FALSE, FALSE },
  { "aten::mean", FAMILY_REDUCTION, -1, -1, -1, -1, -1, FALSE, FALSE },
  { "aten::amax", FAMILY_REDUCTION, -1, -1, -1, -1, -1, FALSE, FALSE },
  { "aten::max", FAMILY_REDUCTION, -1, -1, -1, -1, -1, FALSE, FALSE },
  { "aten::min", FAMILY_REDUCTION, -1, -1, -1, -1, -1, FALSE, FALSE },
  { "aten::argmax", FAMILY_REDUCTION, -1, -1, -1, -1, -1, FALSE, FALSE },
  { "aten::norm", FAMILY_REDUCTION, -1, -1, -1, -1, -1, FALSE, FALSE },
  { "aten::linalg_vector_norm", FAMILY_REDUCTION, -1, -1, -1, -1, -1, FALSE, FALSE },

  { "aten::layer_norm", FAMILY_NORM, -1, -1, -1, -1, -1, FALSE, FALSE },
  { "aten::native_layer_norm", FAMILY_NORM, -1, -1, -1, -1, -1, FALSE, FALSE },
  { "aten::rms_norm", FAMILY_NORM, -1, -1, -1, -1, -1, FALSE, FALSE },
  { "aten::_fused_rms_norm", FAMILY_NORM, -1, -1, -1, -1, -1, FALSE, FALSE },
  { "aten::group_norm", FAMILY_NORM, -1, -1, -1, -1, -1, FALSE, FALSE },
  { "aten::native_group_norm", FAMILY_NORM, -1, -1, -1, -1, -1, FALSE, FALSE },
  { "aten::batch_norm", FAMILY_NORM, -1, -1, -1, -1, -1, FALSE, FALSE },
  { "aten::native_batch_norm", FAMILY_NORM, -1, -1, -1, -1, -1, FALSE, FALSE },
  { "aten::cudnn_batch_norm", FAMILY_NORM, -1, -1, -1, -1, -1, FALSE, FALSE },
  { "aten::native_layer_norm_backward", FAMILY_NORM_BACKWARD, -1, -1, -1, -1, -1, FALSE, FALSE },
  { "aten::native_batch_norm_backward", FAMILY_NORM_BACKWARD, -1, -1, -1, -1, -1, FALSE, FALSE },
  { "aten::cudnn_batch_norm_backward", FAMILY_NORM_BACKWARD, -1, -1, -1, -1, -1, FALSE, FALSE },
  { "aten::native_group_norm_backward", FAMILY_NORM_BACKWARD, -1, -1, -1, -1, -1, FALSE, FALSE },

  { "aten::softmax", FAMILY_SOFTMAX, -1, -1, -1, -1, -1, FALSE, FALSE },
  { "aten::_softmax", FAMILY_SOFTMAX, -1, -1, -1, -1, -1, FALSE, FALSE },
  { "aten::log_softmax", FAMILY_SOFTMAX, -1, -1, -1, -1, -1, FALSE, FALSE },
  { "aten::_log_softmax", FAMILY_SOFTMAX, -1, -1, -1, -1, -1, FALSE, FALSE },
  { "aten::_softmax_backward_data", FAMILY_SOFTMAX_BACKWARD, -1, -1, -1, -1, -1, FALSE, FALSE },
  { "aten::_log_softmax_backward_data", FAMILY_SOFTMAX_BACKWARD, -1, -1, -1, -1, -1, FALSE, FALSE },
};

static const char * const family_names[] = {
  "gemm", "convolution", "convolution", "attention", "attention", "elementwise",
  "reduction", "normalization", "normalization", "softmax", "softmax",
};

gint
chrono_op_model_find (const char *name)
{
  static GHashTable *index;
  static gsize done = 0;
  gpointer value;

  if (g_once_init_enter (&done))
    {
      index = g_hash_table_new (g_str_hash, g_str_equal);
      for (guint i = 0; i < G_N_ELEMENTS (models); i++)
        g_hash_table_insert (index, (gpointer) models[i].name, GUINT_TO_POINTER (i + 1));
      g_once_init_leave (&done, 1);
    }
  value = g_hash_table_lookup (index, name);
  return value ? (gint) GPOINTER_TO_UINT (value) - 1 : -1;
}

gboolean
chrono_op_model_reads_concrete (gint model)
{
  g_return_val_if_fail (model >= 0 && (guint) model < G_N_ELEMENTS (models), FALSE);
  return models[model].flag >= 0;
}

/* ------------------------------------------------------------------ */
/* The args' arrays, read from their raw text                          */

static const char *
skip_space (const char *p,
            const char *end)
{
  while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r'))
    p++;
  return p;
}

/* Past the closing quote of the string whose text starts at P. */
static const char *
skip_string (const char *p,
             const char *end)
{
  for (;;)
    {
      const char *q = memchr (p, '"', end - p);
      const char *b = q;

      if (q == NULL)
        return end;
      /* A quote after an odd run of backslashes is escaped. */
      while (b > p && b[-1] == '\\')
        b--;
      if (((q - b) & 1) == 0)
        return q + 1;
      p = q + 1;
    }
}

/* Past the JSON value at P: a number, a string, or a nested array. */
static const char *
skip_value (const char *p,
            const char *end)
{
  gint depth = 0;

  for (; p < end; p++)
    {
      if (*p == '"')
        {
          p = skip_string (p + 1, end);
          if (depth == 0)
            return p;
          p--;
        }
      else if (*p == '[' || *p == '{')
        depth++;
      else if (*p == ']' || *p == '}')
        {
          if (depth == 0)
            return p;
          if (--depth == 0)
            return p + 1;
        }
      else if (*p == ',' && depth == 0)
        return p;
    }
  return end;
}

/* What a member's reader did with the value the scanner is at. */
typedef enum {
  MEMBER_SKIP,           /* left it: the walk skips it */
  MEMBER_READ,           /* moved past it */
  MEMBER_STOP,           /* done: the walk ends */
} MemberStep;

/* Past the value the scanner is at: most members of args are small
 * integers (ids, indices), read without the general number syntax. */
static inline ChronoJsonStatus
skip_member_value (ChronoJsonScanner *s)
{
  guint64 v;

  if (s->p < s->end && g_ascii_isdigit (*s->p) && chrono_json_read_small_uint (s, &v))
    return CHRONO_JSON_OK;
  return chrono_json_skip_value (s);
}

/* Calls FN with each member's key and the scanner at its value, until FN
 * says to stop or the object at TEXT ends. FALSE when the text is not an
 * object. The args were read whole when the trace was loaded: the
 * scanner's fast skips apply. */
static gboolean
walk_members (const char  *text,
              gsize        available,
              MemberStep (*fn) (ChronoJsonScanner *s, const ChronoJsonString *key, gpointer data),
              gpointer     data)
{
  ChronoJsonScanner s = { (const guint8 *) text, (const guint8 *) text + available };
  ChronoJsonString key;
  gboolean done = FALSE;

  chrono_json_skip_ws (&s);
  if (s.p >= s.end || *s.p != '{')
    return FALSE;
  s.p++;
  for (gboolean first = TRUE;; first = FALSE)
    {
      MemberStep step;

      if (chrono_json_next_member (&s, first, &key, &done) != CHRONO_JSON_OK || done)
        return TRUE;
      if ((step = fn (&s, &key, data)) == MEMBER_STOP ||
          (step == MEMBER_SKIP && skip_member_value (&s) != CHRONO_JSON_OK))
        return TRUE;
    }
}

typedef struct {
  const char *key;
  gsize       len;
  const char *value;
} FindMember;

static MemberStep
find_member_at (ChronoJsonScanner      *s,
                const ChronoJsonString *key,
                gpointer                data)
{
  FindMember *f = data;

  if (key->len == f->len && memcmp (key->start, f->key, f->len) == 0)
    {
      f->value = (const char *) s->p;
      return MEMBER_STOP;
    }
  return MEMBER_SKIP;
}

const char *
chrono_op_model_find_member (const char *text,
                             gsize       available,
                             const char *key)
{
  FindMember f = { key, strlen (key), NULL };
  const char *found = NULL;

  switch (chrono_json_search_member (text, available, key, f.len, &found))
    {
    case CHRONO_JSON_SEARCH_FOUND:
      return found;
    case CHRONO_JSON_SEARCH_ABSENT:
      return NULL;
    case CHRONO_JSON_SEARCH_UNSURE:
      break;
    }
  walk_members (text, available, find_member_at, &f);
  return f.value;
}

/* The members read for the models, in the order of ChronoOpModelInputs:
 * the first two are needed, the last only when asked for. */
static const struct { const char *key; gsize len; } input_keys[] = {
  { "Input Dims", 10 }, { "Input type", 10 }, { "Concrete Inputs", 15 },
};

/* Where INPUTS keeps input_keys[K]'s value and its length. */
static void
input_slot (ChronoOpModelInputs  *inputs,
            guint                 k,
            const char         ***slot,
            gsize               **len)
{
  *slot = k == 0 ? &inputs->dims : k == 1 ? &inputs->types : &inputs->concrete;
  *len = k == 0 ? &inputs->dims_len : k == 1 ? &inputs->types_len : &inputs->concrete_len;
}

typedef struct {
  ChronoOpModelInputs *inputs;
  guint                wanted;
  guint                missing;
  gboolean             bad;
} ReadArgs;

static MemberStep
read_arg (ChronoJsonScanner      *s,
          const ChronoJsonString *key,
          gpointer                data)
{
  ReadArgs *r = data;

  for (guint k = 0; k < r->wanted; k++)
    if (key->len == input_keys[k].len && memcmp (key->start, input_keys[k].key, key->len) == 0)
      {
        const guint8 *value = s->p;
        const char **slot;
        gsize *slot_len;

        input_slot (r->inputs, k, &slot, &slot_len);
        if (chrono_json_skip_value (s) != CHRONO_JSON_OK)
          {
            r->bad = TRUE;
            return MEMBER_STOP;
          }
        if (*slot == NULL)
          r->missing--;
        *slot = (const char *) value;
        *slot_len = s->p - value;
        return r->missing > 0 ? MEMBER_READ : MEMBER_STOP;
      }
  return MEMBER_SKIP;
}

gboolean
chrono_op_model_read_args (const char                *text,
                           gsize                      available,
                           ChronoOpModelInputs       *inputs,
                           gboolean                   want_concrete,
                           const ChronoOpModelInputs *like)
{
  ReadArgs r = { inputs, want_concrete ? 3 : 2, want_concrete ? 3 : 2, FALSE };

  memset (inputs, 0, sizeof *inputs);
  /* Each member searched for, where the search can be sure. */
  {
    guint k;

    for (k = 0; k < r.wanted; k++)
      {
        const char *value = NULL;
        ChronoJsonSearch found = chrono_json_search_member (text, available, input_keys[k].key, input_keys[k].len,
                                                            &value);
        ChronoJsonScanner sc = { (const guint8 *) value, (const guint8 *) text + available };
        const char **slot, **like_slot = NULL;
        gsize *slot_len, *like_len = NULL;

        /* Shapes and types are needed; concrete inputs are not. */
        if (found == CHRONO_JSON_SEARCH_ABSENT && k < 2)
          return FALSE;
        if (found == CHRONO_JSON_SEARCH_ABSENT)
          continue;
        if (found != CHRONO_JSON_SEARCH_FOUND)
          break;
        if (like)
          input_slot ((ChronoOpModelInputs *) like, k, &like_slot, &like_len);
        if (chrono_json_skip_value_like (&sc, like_slot ? *like_slot : NULL, like_slot && *like_slot ? *like_len : 0) !=
            CHRONO_JSON_OK)
          break;
        input_slot (inputs, k, &slot, &slot_len);
        *slot = value;
        *slot_len = (const char *) sc.p - value;
      }
    if (k == r.wanted)
      return TRUE;
    memset (inputs, 0, sizeof *inputs);
  }
  /* Member by member, until the ones wanted are found or the object ends. */
  if (!walk_members (text, available, read_arg, &r) || r.bad)
    return FALSE;
  return inputs->dims != NULL && inputs->types != NULL;
}

static void
parse_dtype (const char *s,
             gsize       len,
             Tensor     *t)
{
  static const struct { const char *name; ChronoDtype dtype; gdouble size; } types[] = {
    { "float", CHRONO_DTYPE_FP32, 4 },
    { "double", CHRONO_DTYPE_FP64, 8 },
    { "c10::Half", CHRONO_DTYPE_FP16, 2 },
    { "Half", CHRONO_DTYPE_FP16, 2 },
    { "c10::BFloat16", CHRONO_DTYPE_FP16, 2 },
    { "BFloat16", CHRONO_DTYPE_FP16, 2 },
    { "signed char", CHRONO_DTYPE_INT8, 1 },
    { "unsigned char", CHRONO_DTYPE_INT8, 1 },
    { "char", CHRONO_DTYPE_INT8, 1 },
    { "bool", CHRONO_DTYPE_UNKNOWN, 1 },
    { "short", CHRONO_DTYPE_UNKNOWN, 2 },
    { "int", CHRONO_DTYPE_UNKNOWN, 4 },
    { "long", CHRONO_DTYPE_UNKNOWN, 8 },
    { "long int", CHRONO_DTYPE_UNKNOWN, 8 },
    { "c10::complex<float>", CHRONO_DTYPE_UNKNOWN, 8 },
  };

  t->dtype = CHRONO_DTYPE_UNKNOWN;
  t->size = 0;
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    if (strlen (types[i].name) == len && memcmp (types[i].name, s, len) == 0)
      {
        t->dtype = types[i].dtype;
        t->size = types[i].size;
        return;
      }
  /* c10::Float8_e4m3fn, c10::Float8_e5m2, …; c10::Float4_e2m1fn_x2 packs two in a byte. */
  if (g_strstr_len (s, len, "Float8") != NULL)
    {
      t->dtype = CHRONO_DTYPE_FP8;
      t->size = 1;
    }
  else if (g_strstr_len (s, len, "Float4") != NULL)
    {
      t->dtype = CHRONO_DTYPE_FP4;
      t->size = 1;
    }
}

static gboolean
parse_dims (const char *p,
            const char *end,
            Inputs     *in)
{
  p = skip_space (p, end);
  if (p >= end || *p++ != '[')
    return FALSE;
  in->n = 0;
  for (;;)
    {
      Tensor *t;

      p = skip_space (p, end);
      if (p < end && *p == ']')
        return TRUE;
      if (p >= end || *p != '[' || in->n == MAX_INPUTS)
        return FALSE;
      t = &in->in[in->n++];
      t->n_dims = 0;
      p = skip_space (p + 1, end);
      if (p < end && *p == '[')
        {
          /* A list of tensors: not one shape. */
          t->n_dims = -1;
          p = skip_value (p - 1, end);
        }
      else
        {
          while (p < end && *p != ']')
            {
              char *next;
              gint64 v = g_ascii_strtoll (p, &next, 10);

              if (next == p)
                return FALSE;
              if (t->n_dims >= 0 && t->n_dims < MAX_RANK)
                t->dims[t->n_dims++] = v;
              else
                t->n_dims = -1;
              p = skip_space (next, end);
              if (p < end && *p == ',')
                p = skip_space (p + 1, end);
            }
          if (p >= end)
            return FALSE;
          p++;
        }
      p = skip_space (p, end);
      if (p < end && *p == ',')
        p++;
    }
}

/* Calls FN for each string of the array at P. */
static gboolean
parse_strings (const char *p,
               const char *end,
               void      (*fn) (const char *s, gsize len, guint i, gpointer data),
               gpointer    data)
{
  guint i = 0;

  p = skip_space (p, end);
  if (p >= end || *p++ != '[')
    return FALSE;
  for (;;)
    {
      const char *close;

      p = skip_space (p, end);
      if (p < end && *p == ']')
        return TRUE;
      if (p >= end || *p != '"')
        return FALSE;
      close = skip_value (p, end);
      if (close > end || close - p < 2)
        return FALSE;
      fn (p + 1, close - p - 2, i++, data);
      p = skip_space (close, end);
      if (p < end && *p == ',')
        p++;
    }
}

static void
set_type (const char *s,
          gsize       len,
          guint       i,
          gpointer    data)
{
  Inputs *in = data;

  if (i < in->n)
    parse_dtype (s, len, &in->in[i]);
}

static void
set_concrete (const char *s,
              gsize       len,
              guint       i,
              gpointer    data)
{
  Inputs *in = data;

  if (i < MAX_INPUTS)
    {
      in->concrete[i] = s;
      in->concrete_len[i] = len;
      in->n_concrete = MAX (in->n_concrete, i + 1);
    }
}

/* ------------------------------------------------------------------ */
/* Models                                                              */

static gboolean
is_tensor (const Inputs *in,
           gint          i,
           gint          rank)
{
  return i >= 0 && (guint) i < in->n && in->in[i].n_dims == rank;
}

static gdouble
numel (const Tensor *t)
{
  gdouble n = 1;

  for (gint i = 0; i < t->n_dims; i++)
    n *= (gdouble) t->dims[i];
  return n;
}

static gdouble
tensor_bytes (const Tensor *t)
{
  return t->n_dims >= 0 ? numel (t) * t->size : 0;
}

/* The type of the first floating-point tensor among the inputs. */
static const Tensor *
first_tensor (const Inputs *in)
{
  for (guint i = 0; i < in->n; i++)
    if (in->in[i].n_dims > 0 && in->in[i].size > 0)
      return &in->in[i];
  return NULL;
}

static gboolean
model_gemm (const Model  *m,
            const Inputs *in,
            ChronoOpCost *cost)
{
  const Tensor *a, *b;
  gdouble batch = 1, rows, inner, cols, out_size;

  if (is_tensor (in, m->a, 2) && is_tensor (in, m->b, 2))
    {
      a = &in->in[m->a];
      b = &in->in[m->b];
    }
  else if (is_tensor (in, m->a, 3) && is_tensor (in, m->b, 3))
    {
      a = &in->in[m->a];
      b = &in->in[m->b];
      if (a->dims[0] != b->dims[0])
        return FALSE;
      batch = (gdouble) a->dims[0];
    }
  else
    return FALSE;
  rows = (gdouble) a->dims[a->n_dims - 2];
  inner = (gdouble) a->dims[a->n_dims - 1];
  cols = (gdouble) b->dims[b->n_dims - 1];
  if (inner != (gdouble) b->dims[b->n_dims - 2] || a->size <= 0 || b->size <= 0)
    return FALSE;

  /* _scaled_mm writes a wider type than its FP8 inputs: BF16 unless told. */
  out_size = a->dtype == CHRONO_DTYPE_FP8 || a->dtype == CHRONO_DTYPE_FP4 ? 2 : a->size;
  cost->flops = 2 * batch * rows * cols * inner;
  cost->bytes = batch * (rows * inner * a->size + inner * cols * b->size + rows * cols * out_size);
  if (m->c >= 0 && (guint) m->c < in->n && in->in[m->c].n_dims > 0)
    cost->bytes += tensor_bytes (&in->in[m->c]);
  cost->dtype = a->dtype;
  cost->matrix = TRUE;
  return TRUE;
}

/* The integers of a concrete input written as "[2, 2]" or "2". */
static guint
concrete_ints (const Inputs *in,
               gint          i,
               gint64       *out,
               guint         max)
{
  const char *p, *end;
  guint n = 0;

  if (i < 0 || (guint) i >= in->n_concrete || in->concrete[i] == NULL)
    return 0;
  p = in->concrete[i];
  end = p + in->concrete_len[i];
  while (p < end && n < max)
    {
      char *next;
      gint64 v;

      if (!g_ascii_isdigit (*p) && *p != '-')
        {
          p++;
          continue;
        }
      v = g_ascii_strtoll (p, &next, 10);
      if (next == p)
        break;
      out[n++] = v;
      p = next;
    }
  return n;
}

static gboolean
concrete_is (const Inputs *in,
             gint          i,
             const char   *text)
{
  return i >= 0 && (guint) i < in->n_concrete && in->concrete[i] != NULL &&
         in->concrete_len[i] == strlen (text) && memcmp (in->concrete[i], text, in->concrete_len[i]) == 0;
}

static gdouble
conv_dtype (const Tensor *x,
            ChronoOpCost *cost)
{
  /* cuDNN convolutions run FP32 as TF32 unless torch.backends.cudnn.allow_tf32 is off. */
  cost->dtype = x->dtype == CHRONO_DTYPE_FP32 ? CHRONO_DTYPE_TF32 : x->dtype;
  cost->matrix = TRUE;
  return x->size;
}

static gboolean
model_conv (const Model  *m,
            const Inputs *in,
            ChronoOpCost *cost)
{
  const Tensor *x, *w;
  gint spatial;
  gint64 stride[3], padding[3], dilation[3];
  gint si = m->flag, pi = m->flag + 1, di = m->flag + 2;
  gdouble out_spatial = 1, kernel = 1, size;

  if (m->c < 0)
    {
      /* cudnn_convolution: padding, stride, dilation */
      pi = 2;
      si = 3;
      di = 4;
    }
  if (m->a >= (gint) in->n || m->b >= (gint) in->n)
    return FALSE;
  x = &in->in[m->a];
  w = &in->in[m->b];
  if (x->n_dims < 3 || x->n_dims > 5 || w->n_dims != x->n_dims || x->size <= 0)
    return FALSE;
  spatial = x->n_dims - 2;
  /* Output sizes need the stride, padding and dilation, which only
   * Concrete Inputs record. */
  if (concrete_ints (in, si, stride, 3) == 0)
    return FALSE;
  if (concrete_is (in, pi, "valid"))
    padding[0] = padding[1] = padding[2] = 0;
  else if (!concrete_is (in, pi, "same") && concrete_ints (in, pi, padding, 3) == 0)
    return FALSE;
  if (concrete_ints (in, di, dilation, 3) == 0)
    dilation[0] = dilation[1] = dilation[2] = 1;
  for (gint k = 0; k < spatial; k++)
    {
      /* One number stands for every dimension. */
      gint64 s = stride[concrete_ints (in, si, stride, 3) > (guint) k ? k : 0];
      gint64 d = dilation[concrete_ints (in, di, dilation, 3) > (guint) k ? k : 0];
      gint64 kk = w->dims[2 + k];
      gint64 n = x->dims[2 + k];
      gint64 o;

      if (concrete_is (in, pi, "same"))
        o = n;
      else
        {
          gint64 p = padding[concrete_ints (in, pi, padding, 3) > (guint) k ? k : 0];
          if (s <= 0)
            return FALSE;
          o = (n + 2 * p - d * (kk - 1) - 1) / s + 1;
        }
      if (o <= 0)
        return FALSE;
      out_spatial *= (gdouble) o;
      kernel *= (gdouble) kk;
    }
  size = conv_dtype (x, cost);
  /* w is (out channels, in channels / groups, kernel…). */
  cost->flops = 2 * (gdouble) x->dims[0] * (gdouble) w->dims[0] * out_spatial * (gdouble) w->dims[1] * kernel;
  cost->bytes = tensor_bytes (x) + tensor_bytes (w) + (gdouble) x->dims[0] * (gdouble) w->dims[0] * out_spatial * size;
  if (m->c >= 0 && (guint) m->c < in->n && in->in[m->c].n_dims == 1)
    cost->bytes += tensor_bytes (&in->in[m->c]);
  return TRUE;
}

/* convolution_backward (grad_output, input, weight, …): the gradients of
 * the input and of the weight, each a convolution as costly as the
 * forward one, whose output is grad_output. */
static gboolean
model_conv_backward (const Model  *m,
                     const Inputs *in,
                     ChronoOpCost *cost)
{
  const Tensor *dy, *x, *w;
  gdouble out_spatial = 1, kernel = 1;

  if ((guint) m->b >= in->n)
    return FALSE;
  dy = &in->in[m->c];
  x = &in->in[m->a];
  w = &in->in[m->b];
  if (x->n_dims < 3 || x->n_dims > 5 || w->n_dims != x->n_dims || dy->n_dims != x->n_dims || x->size <= 0)
    return FALSE;
  for (gint k = 2; k < x->n_dims; k++)
    {
      out_spatial *= (gdouble) dy->dims[k];
      kernel *= (gdouble) w->dims[k];
    }
  conv_dtype (x, cost);
  cost->flops = 2 * 2 * (gdouble) x->dims[0] * (gdouble) w->dims[0] * out_spatial * (gdouble) w->dims[1] * kernel;
  /* Reads grad_output, input and weight; writes the input's and the weight's gradients. */
  cost->bytes = tensor_bytes (dy) + 2 * tensor_bytes (x) + 2 * tensor_bytes (w);
  return TRUE;
}

/* Sizes of one attention input: batch, heads, sequence, head dimension. */
static gboolean
attention_dims (const Tensor *t,
                gboolean      bshd,
                gdouble      *batch,
                gdouble      *heads,
                gdouble      *seq,
                gdouble      *dim)
{
  gint r = t->n_dims;

  if (r < 3 || r > MAX_RANK || (bshd && r != 4))
    return FALSE;
  *dim = (gdouble) t->dims[r - 1];
  if (bshd)
    {
      *batch = (gdouble) t->dims[0];
      *seq = (gdouble) t->dims[1];
      *heads = (gdouble) t->dims[2];
      return TRUE;
    }
  *seq = (gdouble) t->dims[r - 2];
  *heads = (gdouble) t->dims[r - 3];
  *batch = 1;
  for (gint i = 0; i < r - 3; i++)
    *batch *= (gdouble) t->dims[i];
  return TRUE;
}

/* What a call without Concrete Inputs is: not causal, the default. */
static gboolean
is_causal (const Model  *m,
           const Inputs *in)
{
  if (!m->mask_type)
    return concrete_is (in, m->flag, "True");
  /* A mask type: 0 for none, 1 and 2 for causal from either corner. */
  return (guint) m->flag < in->n_concrete && in->concrete_len[m->flag] > 0 && !concrete_is (in, m->flag, "0");
}

static gboolean
model_attention (const Model  *m,
                 const Inputs *in,
                 gboolean      backward,
                 ChronoOpCost *cost)
{
  gdouble b, hq, sq, dqk, bk, hk, sk, dk, bv, hv, sv, dv, pairs, q_bytes, k_bytes, v_bytes, o_bytes;
  const Tensor *q;

  if ((guint) m->c >= in->n)
    return FALSE;
  q = &in->in[m->a];
  if (!attention_dims (q, m->bshd, &b, &hq, &sq, &dqk) ||
      !attention_dims (&in->in[m->b], m->bshd, &bk, &hk, &sk, &dk) ||
      !attention_dims (&in->in[m->c], m->bshd, &bv, &hv, &sv, &dv) ||
      b != bk || b != bv || dqk != dk || sk != sv || hk != hv || q->size <= 0)
    return FALSE;
  /* Packed sequences of different lengths: the cost needs each length. */
  if (m->varlen >= 0 && (guint) m->varlen < in->n && in->in[m->varlen].n_dims > 0)
    return FALSE;

  /* Scores and weighted values: two matrix products of Sq × Sk per head
   * (FlashAttention-2's count), half of them under a causal mask. */
  pairs = b * hq * sq * sk;
  if (is_causal (m, in))
    pairs /= 2;
  q_bytes = b * hq * sq * dqk * q->size;
  k_bytes = b * hk * sk * dqk * q->size;
  v_bytes = b * hk * sk * dv * q->size;
  o_bytes = b * hq * sq * dv * q->size;
  if (!backward)
    {
      cost->flops = 2 * pairs * (dqk + dv);
      cost->bytes = q_bytes + k_bytes + v_bytes + o_bytes;
    }
  else
    {
      /* Recomputed scores, then dV, dP, dQ and dK: five products, 2.5 × forward. */
      cost->flops = 2 * pairs * (3 * dqk + 2 * dv);
      /* Reads Q, K, V, O and dO; writes dQ, dK and dV. */
      cost->bytes = 2 * (q_bytes + k_bytes + v_bytes) + 2 * o_bytes;
    }
  cost->dtype = q->dtype;
  cost->matrix = TRUE;
  return TRUE;
}

/* Element-wise work: one operation per output element (broadcast over
 * the tensor inputs), each input read and the output written once. */
static gboolean
model_pointwise (const Model  *m,
                 const Inputs *in,
                 ChronoOpCost *cost)
{
  const Tensor *first = first_tensor (in);
  gint64 shape[MAX_RANK] = { 0 };   /* the broadcast output's */
  gint out_rank = 0;
  gdouble elements = 1, read = 0, per_element, write_factor;

  const Tensor *out = NULL;
  guint n_in = in->n;

  if (first == NULL)
    return FALSE;
  /* mul.out (self, other, out): the last tensor is written, not read. */
  if (m->n_args > 0 && in->n == (guint) m->n_args + 1 && in->in[in->n - 1].n_dims > 0 &&
      in->in[in->n - 1].size > 0)
    {
      out = &in->in[in->n - 1];
      n_in--;
    }
  for (guint i = 0; i < n_in; i++)
    {
      const Tensor *t = &in->in[i];

      if (t->n_dims <= 0 || t->size <= 0)
        continue;
      read += tensor_bytes (t);
      /* Broadcasting aligns the last dimensions. */
      if (m->family == FAMILY_ELEMENTWISE)
        {
          for (gint k = 0; k < t->n_dims; k++)
            {
              gint o = MAX_RANK - t->n_dims + k;
              shape[o] = MAX (shape[o], t->dims[k]);
            }
          out_rank = MAX (out_rank, t->n_dims);
        }
    }
  if (out != NULL)
    elements = numel (out);
  else if (m->family == FAMILY_ELEMENTWISE)
    for (gint k = MAX_RANK - out_rank; k < MAX_RANK; k++)
      elements *= (gdouble) shape[k];
  else
    elements = numel (first);

  switch (m->family)
    {
    case FAMILY_REDUCTION:
      /* The output is small beside the input and neglected. */
      per_element = 1;
      write_factor = 0;
      break;
    case FAMILY_NORM:
      /* mean, variance, normalise, scale, shift */
      per_element = 5;
      write_factor = 1;
      break;
    case FAMILY_NORM_BACKWARD:
      per_element = 10;
      write_factor = 1;
      break;
    case FAMILY_SOFTMAX:
      /* max, subtract, exponent, sum, divide */
      per_element = 5;
      write_factor = 1;
      read = tensor_bytes (first);
      break;
    case FAMILY_SOFTMAX_BACKWARD:
      per_element = 4;
      write_factor = 1;
      break;
    default:
      per_element = 1;
      write_factor = 1;
      break;
    }
  cost->flops = per_element * elements;
  cost->bytes = read + write_factor * elements * first->size;
  cost->dtype = first->dtype;
  cost->matrix = FALSE;
  return TRUE;
}

gboolean
chrono_op_model_cost (gint          model,
                      const char   *dims,
                      gsize         dims_len,
                      const char   *types,
                      gsize         types_len,
                      const char   *concrete,
                      gsize         concrete_len,
                      ChronoOpCost *cost)
{
  const Model *m;
  Inputs in;
  gboolean ok;
  g_autofree char *dims_array = NULL;
  g_autofree char *types_array = NULL;

  g_return_val_if_fail (model >= 0 && (guint) model < G_N_ELEMENTS (models), FALSE);

  m = &models[model];
  memset (&in, 0, sizeof in);
  memset (cost, 0, sizeof *cost);
  /* torch_npu's shapes and types, written as text, read as Kineto's arrays. */
  if ((dims_array = chrono_op_inputs_from_text (dims, dims_len, TRUE)) != NULL)
    {
      dims = dims_array;
      dims_len = strlen (dims_array);
    }
  if (types != NULL && (types_array = chrono_op_inputs_from_text (types, types_len, FALSE)) != NULL)
    {
      types = types_array;
      types_len = strlen (types_array);
    }
  if (!parse_dims (dims, dims + dims_len, &in))
    return FALSE;
  if (types == NULL || !parse_strings (types, types + types_len, set_type, &in))
    return FALSE;
  if (concrete != NULL)
    parse_strings (concrete, concrete + concrete_len, set_concrete, &in);

  switch (m->family)
    {
    case FAMILY_GEMM:
      ok = model_gemm (m, &in, cost);
      break;
    case FAMILY_CONV:
      ok = model_conv (m, &in, cost);
      break;
    case FAMILY_CONV_BACKWARD:
      ok = model_conv_backward (m, &in, cost);
      break;
    case FAMILY_ATTENTION:
    case FAMILY_ATTENTION_BACKWARD:
      ok = model_attention (m, &in, m->family == FAMILY_ATTENTION_BACKWARD, cost);
      break;
    default:
      ok = model_pointwise (m, &in, cost);
      break;
    }
  cost->family = family_names[m->family];
  return ok && isfinite (cost->flops) && isfinite (cost->bytes) && cost->bytes > 0;
}
