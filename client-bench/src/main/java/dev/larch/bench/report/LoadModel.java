package dev.larch.bench.report;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * How load was offered, as read from a result's config: closed loop (each thread sends its next
 * request when the previous one is answered), a fixed rate, and asynchronous outstanding requests.
 * Results written before load models existed have none of these fields and count as closed loop.
 *
 * @param model the model's name ("closed" when the config does not say)
 * @param rate the target rate in operations per second, or null
 * @param outstanding outstanding requests per connection, or null
 */
public record LoadModel(String model, Double rate, Integer outstanding) {
    /** The config fields read, in one place: they are written by the run side of the harness. */
    static final String MODEL_FIELD = "loadModel";

    static final String RATE_FIELD = "rate";
    static final String OUTSTANDING_FIELD = "outstanding";

    /** The load model of a config. */
    public static LoadModel of(BenchResult.Config config) {
        return of(JsonReport.tree(config));
    }

    /** The load model of a config's JSON tree. */
    static LoadModel of(JsonNode c) {
        JsonNode model = c.get(MODEL_FIELD);
        JsonNode rate = c.get(RATE_FIELD);
        JsonNode outstanding = c.get(OUTSTANDING_FIELD);
        return new LoadModel(
                model == null || model.isNull() || model.asText().isBlank() ? "closed" : model.asText(),
                rate == null || !rate.isNumber() ? null : rate.asDouble(),
                outstanding == null || !outstanding.isNumber() ? null : outstanding.asInt());
    }

    /** E.g. "closed", "rate 5000 ops/s" or "closed, 8 outstanding". */
    public String label() {
        StringBuilder sb = new StringBuilder(model);
        if (rate != null) {
            sb.append(", ").append(SvgChart.fmt(rate)).append(" ops/s");
        }
        if (outstanding != null) {
            sb.append(", ").append(outstanding).append(" outstanding");
        }
        return sb.toString();
    }
}
