/* chrono-string-table.c
 *
 * An open-addressing hash over an append-only arena. Names repeat millions
 * of times in a trace, so the hot path is a hash, one probe and a memcmp.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "chrono-string-table.h"

/* Blocks double from the first size to the last: a small trace's names
 * fit in a few kilobytes, a large one's in a few big blocks. */
#define ARENA_FIRST_BLOCK (4 * 1024)
#define ARENA_BLOCK       (256 * 1024)
#define FIRST_SLOTS       256

struct _ChronoStringTable
{
  GPtrArray *blocks;      /* arena blocks; strings never move */
  char      *block;
  gsize      block_used;
  gsize      block_size;
  GArray    *strings;     /* id -> const char * */
  GArray    *lengths;     /* id -> guint32 */
  guint32   *slots;       /* id + 1, 0 = empty */
  guint32   *slot_hash;
  guint32    mask;
  gsize      bytes;
};

static inline guint32
hash_bytes (const char *s,
            gsize       len)
{
  /* FNV-1a over 8-byte words: names are short, so this beats a byte loop. */
  guint64 h = 0xcbf29ce484222325ull ^ len;
  while (len >= 8)
    {
      guint64 w;
      memcpy (&w, s, 8);
      h = (h ^ w) * 0x100000001b3ull;
      h ^= h >> 29;
      s += 8;
      len -= 8;
    }
  if (len > 0)
    {
      guint64 w = 0;
      memcpy (&w, s, len);
      h = (h ^ w) * 0x100000001b3ull;
      h ^= h >> 29;
    }
  h *= 0x9e3779b97f4a7c15ull;
  return (guint32) (h >> 32);
}

static const char *
arena_copy (ChronoStringTable *self,
            const char        *str,
            gsize              len)
{
  char *dst;

  if (self->block == NULL || self->block_used + len + 1 > self->block_size)
    {
      gsize next = self->block == NULL ? ARENA_FIRST_BLOCK : MIN (self->block_size * 2, ARENA_BLOCK);

      self->block_size = MAX (next, len + 1);
      self->block = g_malloc (self->block_size);
      self->block_used = 0;
      g_ptr_array_add (self->blocks, self->block);
      self->bytes += self->block_size;
    }
  dst = self->block + self->block_used;
  memcpy (dst, str, len);
  dst[len] = '\0';
  self->block_used += len + 1;
  return dst;
}

/* Empty slots, MASK + 1 of them. */
static void
new_slots (ChronoStringTable *self,
           guint32            mask)
{
  self->mask = mask;
  self->slots = g_new0 (guint32, (gsize) mask + 1);
  self->slot_hash = g_new (guint32, (gsize) mask + 1);
}

/* Puts ID, of hash H, in the first free slot from its own. */
static inline void
place (ChronoStringTable *self,
       guint32            id,
       guint32            h)
{
  guint32 j = h & self->mask;

  while (self->slots[j] != 0)
    j = (j + 1) & self->mask;
  self->slots[j] = id + 1;
  self->slot_hash[j] = h;
}

static void
grow (ChronoStringTable *self)
{
  g_autofree guint32 *slots = self->slots;
  g_autofree guint32 *hashes = self->slot_hash;
  guint32 mask = self->mask;

  new_slots (self, mask * 2 + 1);
  for (guint32 i = 0; i <= mask; i++)
    if (slots[i] != 0)
      place (self, slots[i] - 1, hashes[i]);
}

/* After compaction: slots for every string, hashed again. */
static void
rebuild_slots (ChronoStringTable *self)
{
  guint32 mask = FIRST_SLOTS - 1;

  while ((gsize) mask < (gsize) self->strings->len * 2)
    mask = mask * 2 + 1;
  new_slots (self, mask);
  for (guint32 id = 0; id < self->strings->len; id++)
    place (self, id, hash_bytes (g_array_index (self->strings, const char *, id),
                                 g_array_index (self->lengths, guint32, id)));
}

ChronoStringTable *
chrono_string_table_new (void)
{
  ChronoStringTable *self = g_new0 (ChronoStringTable, 1);

  self->blocks = g_ptr_array_new_with_free_func (g_free);
  self->strings = g_array_new (FALSE, FALSE, sizeof (const char *));
  self->lengths = g_array_new (FALSE, FALSE, sizeof (guint32));
  new_slots (self, FIRST_SLOTS - 1);
  chrono_string_table_intern (self, "", 0);
  return self;
}

void
chrono_string_table_free (ChronoStringTable *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->blocks);
  g_array_unref (self->strings);
  g_array_unref (self->lengths);
  g_free (self->slots);
  g_free (self->slot_hash);
  g_free (self);
}

static inline gboolean
find (ChronoStringTable *self,
      const char        *str,
      gsize              len,
      guint32            h,
      guint32           *slot)
{
  guint32 j = h & self->mask;

  for (;;)
    {
      guint32 v = self->slots[j];

      if (v == 0)
        {
          *slot = j;
          return FALSE;
        }
      if (self->slot_hash[j] == h)
        {
          guint32 id = v - 1;
          if (g_array_index (self->lengths, guint32, id) == len &&
              memcmp (g_array_index (self->strings, const char *, id), str, len) == 0)
            {
              *slot = id;
              return TRUE;
            }
        }
      j = (j + 1) & self->mask;
    }
}

guint32
chrono_string_table_intern (ChronoStringTable *self,
                            const char        *str,
                            gsize              len)
{
  guint32 h = hash_bytes (str, len);
  guint32 slot;
  guint32 id;
  const char *copy;
  guint32 len32;

  if (G_UNLIKELY (self->slots == NULL))
    rebuild_slots (self);
  if (find (self, str, len, h, &slot))
    return slot;

  len = MIN (len, G_MAXUINT32 - 1);
  id = self->strings->len;
  copy = arena_copy (self, str, len);
  len32 = (guint32) len;
  g_array_append_val (self->strings, copy);
  g_array_append_val (self->lengths, len32);
  self->slots[slot] = id + 1;
  self->slot_hash[slot] = h;
  if ((gsize) self->strings->len * 2 > self->mask)
    grow (self);
  return id;
}

const char *
chrono_string_table_get (ChronoStringTable *self,
                         guint32            id)
{
  if (id >= self->strings->len)
    return "";
  return g_array_index (self->strings, const char *, id);
}

gsize
chrono_string_table_get_len (ChronoStringTable *self,
                             guint32            id)
{
  if (id >= self->lengths->len)
    return 0;
  return g_array_index (self->lengths, guint32, id);
}

guint
chrono_string_table_size (ChronoStringTable *self)
{
  return self->strings->len;
}

gsize
chrono_string_table_bytes (ChronoStringTable *self)
{
  gsize slots = self->slots != NULL ? (gsize) (self->mask + 1) * 8 : 0;

  return self->bytes + slots + self->strings->len * 12;
}

/* A copy of ARRAY without room to grow. */
static GArray *
array_fitted (GArray *array,
              guint   element_size)
{
  GArray *fitted = g_array_sized_new (FALSE, FALSE, element_size, array->len);

  g_array_append_vals (fitted, array->data, array->len);
  g_array_unref (array);
  return fitted;
}

void
chrono_string_table_compact (ChronoStringTable *self)
{
  gsize total = 0;
  char *block, *dst;

  for (guint32 id = 0; id < self->lengths->len; id++)
    total += g_array_index (self->lengths, guint32, id) + 1;

  block = g_malloc (total);
  dst = block;
  for (guint32 id = 0; id < self->strings->len; id++)
    {
      const char **str = &g_array_index (self->strings, const char *, id);
      gsize len = g_array_index (self->lengths, guint32, id) + 1;

      memcpy (dst, *str, len);
      *str = dst;
      dst += len;
    }
  g_ptr_array_set_size (self->blocks, 0);
  g_ptr_array_add (self->blocks, block);
  /* Full: the next intern starts a block of its own. */
  self->block = block;
  self->block_size = self->block_used = total;
  self->bytes = total;

  self->strings = array_fitted (self->strings, sizeof (const char *));
  self->lengths = array_fitted (self->lengths, sizeof (guint32));
  g_clear_pointer (&self->slots, g_free);
  g_clear_pointer (&self->slot_hash, g_free);
}
