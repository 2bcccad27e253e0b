/* Pictures of the Galton board with cairo: the board and its balls on the left, on the right
 * the histogram of balls per bin (bars) beside the binomial distribution the board should
 * produce (dots), with the step, time and ball count written above. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <cairo.h>

#include "draw.h"

static const double PI = 3.14159265358979323846;

enum { IMAGE_H = 1800, HIST_W = 560, MARGIN = 40, LABEL_W = 150 };

static void capsule_path(cairo_t *cr, const galton *g, size_t k) {
    const double ax = g->ax[k], ay = g->ay[k], bx = g->bx[k], by = g->by[k];
    const double r = g->cr[k] > 0.0f ? g->cr[k] : 0.35; /* thin segments: a visible line */
    cairo_set_line_width(cr, 2.0 * r);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    cairo_move_to(cr, ax, ay);
    cairo_line_to(cr, bx, by);
    cairo_stroke(cr);
}

static void draw_board(cairo_t *cr, const galton *g, double scale, double ox, double oy) {
    cairo_save(cr);
    cairo_translate(cr, ox, oy);
    cairo_scale(cr, scale, -scale); /* y up */
    cairo_translate(cr, -g->left, -g->top - 2.0);
    for (size_t k = 0; k < g->n_caps; k++) {
        if (k < g->first_pin)
            cairo_set_source_rgb(cr, 0.15, 0.15, 0.2);
        else if (k < g->first_divider)
            cairo_set_source_rgb(cr, 0.55, 0.3, 0.1);
        else
            cairo_set_source_rgb(cr, 0.35, 0.35, 0.4);
        capsule_path(cr, g, k);
    }
    /* Balls coloured by the bin they are above, so the mixing shows. */
    const int bins = galton_bin_count(g);
    const double r = g->r[0] * scale < 0.8 ? 0.8 / scale : g->r[0]; /* at least 1.6 pixels wide */
    for (size_t i = 0; i < g->n; i++) {
        const double hue = (double)galton_bin_of(g, g->x[i]) / (double)(bins - 1);
        cairo_set_source_rgb(cr, 0.2 + 0.7 * hue, 0.35, 0.9 - 0.7 * hue);
        cairo_arc(cr, g->x[i], g->y[i], r, 0.0, 2.0 * PI);
        cairo_fill(cr);
    }
    cairo_restore(cr);
}

/* Names of the board's parts, right of the board at their heights. */
static void draw_labels(cairo_t *cr, const galton *g, double scale, double ox, double oy) {
    char text[80];
    const struct {
        float y;
        const char *name;
    } labels[] = {{0.5f * (g->funnel_top + g->top), "hopper"},
                  {0.5f * (g->outlet_y + g->funnel_top), "funnel"},
                  {0.5f * (g->bins_top + g->pins_top), "pins"},
                  {0.5f * (g->floor_y + g->bins_top), "bins"}};
    cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
    cairo_set_font_size(cr, 15);
    for (size_t k = 0; k < sizeof labels / sizeof *labels; k++) {
        cairo_move_to(cr, ox, oy + (g->top + 2.0 - labels[k].y) * scale);
        if (k == 2) {
            snprintf(text, sizeof text, "%d rows of pins", g->p.rows);
            cairo_show_text(cr, text);
        } else if (k == 3) {
            snprintf(text, sizeof text, "%d bins", galton_bin_count(g));
            cairo_show_text(cr, text);
        } else {
            cairo_show_text(cr, labels[k].name);
        }
    }
}

static void draw_histogram(cairo_t *cr, const galton *g, double x0, double y0, double w, double h) {
    const int bins = galton_bin_count(g), rows = g->p.rows;
    size_t *counts = calloc((size_t)bins, sizeof *counts), total = 0, most = 1;
    if (!counts) return;
    galton_bins(g, counts);
    for (int k = 0; k < bins; k++) {
        total += counts[k];
        if (counts[k] > most) most = counts[k];
    }
    double top = (double)most;
    for (int k = 1; k <= rows + 1; k++) {
        const double expect = (double)total * galton_binomial(rows, k - 1);
        if (expect > top) top = expect;
    }
    const double bar = w / bins;
    cairo_set_source_rgb(cr, 0.25, 0.45, 0.8);
    for (int k = 0; k < bins; k++) {
        const double bh = h * (double)counts[k] / top;
        cairo_rectangle(cr, x0 + k * bar + 1.0, y0 + h - bh, bar - 2.0, bh);
    }
    cairo_fill(cr);
    /* Bin k holds the balls that went right k - 1 times of `rows`. */
    cairo_set_source_rgb(cr, 0.85, 0.15, 0.1);
    for (int k = 1; k <= rows + 1; k++) {
        const double e = (double)total * galton_binomial(rows, k - 1);
        cairo_arc(cr, x0 + (k + 0.5) * bar, y0 + h - h * e / top, 4.0, 0.0, 2.0 * PI);
        cairo_fill(cr);
    }
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 1.0);
    cairo_move_to(cr, x0, y0 + h + 0.5);
    cairo_line_to(cr, x0 + w, y0 + h + 0.5);
    cairo_stroke(cr);
    char text[160];
    cairo_set_font_size(cr, 16);
    cairo_move_to(cr, x0, y0 - 34);
    cairo_show_text(cr, "balls per bin (bars)");
    cairo_set_source_rgb(cr, 0.85, 0.15, 0.1);
    cairo_move_to(cr, x0, y0 - 14);
    snprintf(text, sizeof text, "binomial n=%d, p=1/2, times %zu balls (dots)", rows, total);
    cairo_show_text(cr, text);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_font_size(cr, 12);
    for (int k = 0; k < bins; k++) {
        snprintf(text, sizeof text, "%zu", counts[k]);
        cairo_save(cr);
        cairo_move_to(cr, x0 + (k + 0.7) * bar, y0 + h + 8);
        cairo_rotate(cr, PI / 2);
        cairo_show_text(cr, text);
        cairo_restore(cr);
    }
    free(counts);
}

int galton_draw_png(const galton *g, const char *path) {
    const double board_w = g->right - g->left + 4.0, board_h = g->top - g->floor_y + 4.0;
    const double scale = (IMAGE_H - 2.0 * MARGIN) / board_h;
    const int width = (int)(board_w * scale) + LABEL_W + HIST_W + 3 * MARGIN;
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, IMAGE_H);
    cairo_t *cr = cairo_create(s);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    draw_board(cr, g, scale, MARGIN + 2.0 * scale, MARGIN);
    draw_labels(cr, g, scale, 1.5 * MARGIN + board_w * scale, MARGIN);
    const double hx = 2 * MARGIN + board_w * scale + LABEL_W;
    draw_histogram(cr, g, hx, IMAGE_H * 0.45, HIST_W, IMAGE_H * 0.45);
    char text[200];
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_font_size(cr, 18);
    cairo_move_to(cr, hx, MARGIN + 10);
    cairo_show_text(cr, "libcollide2d: Galton board");
    cairo_set_font_size(cr, 14);
    snprintf(text, sizeof text, "%zu balls, %d rows of pins, step %llu (t = %.2f s)", g->n,
             g->p.rows, (unsigned long long)g->steps, (double)g->steps * (double)g->p.dt);
    cairo_move_to(cr, hx, MARGIN + 34);
    cairo_show_text(cr, text);
    cairo_move_to(cr, hx, MARGIN + 54);
    cairo_show_text(cr, "pins: circles, short capsules, thin segments (rows alternate)");
    cairo_move_to(cr, hx, MARGIN + 74);
    cairo_show_text(cr, "balls coloured by the bin below them");
    cairo_destroy(cr);
    const cairo_status_t st = cairo_surface_write_to_png(s, path);
    cairo_surface_destroy(s);
    if (st != CAIRO_STATUS_SUCCESS) {
        fprintf(stderr, "galton: cannot write %s: %s\n", path, cairo_status_to_string(st));
        return -1;
    }
    return 0;
}
