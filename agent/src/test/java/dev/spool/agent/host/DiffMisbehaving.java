package dev.spool.agent.host;

import com.fasterxml.jackson.core.Base64Variants;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.util.MinimalPrettyPrinter;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * Value types of the capture differential for issue 31: custom serializers that touch, change or
 * inspect their generator, fail once, or hand over a {@code byte[]} the host changes after the
 * call; escapes that change a value. Each is named by the class of the issue it reproduces.
 */
public final class DiffMisbehaving {

    private DiffMisbehaving() { }

    /** A value the host changes right after its {@code writeValue} returned ({@code CaptureDiffHost} calls it). */
    public interface ChangedAfterWrite {
        void afterWrite();
    }

    static byte[] bytes(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 37 + 11);
        }
        return b;
    }

    /** A: a serializer writing binary with its own Base64 variant (PEM: line feeds every 64 chars). */
    @JsonSerialize(using = PemBinary.Writer.class)
    public static final class PemBinary {
        final byte[] data = bytes(120);

        @Override
        public String toString() {
            return "PemBinary";
        }

        public static final class Writer extends JsonSerializer<PemBinary> {
            @Override
            public void serialize(PemBinary v, JsonGenerator g, SerializerProvider p) throws IOException {
                g.writeBinary(Base64Variants.PEM, v.data, 0, v.data.length);
            }
        }
    }

    /** K: a serializer handing its {@code byte[]} to {@code writeObjectField}; the host changes it after the call. */
    @JsonSerialize(using = SharedBytes.Writer.class)
    public static final class SharedBytes implements ChangedAfterWrite {
        final byte[] data = bytes(16);

        @Override
        public void afterWrite() {
            java.util.Arrays.fill(data, (byte) 0);
        }

        @Override
        public String toString() {
            return "SharedBytes";
        }

        public static final class Writer extends JsonSerializer<SharedBytes> {
            @Override
            public void serialize(SharedBytes v, JsonGenerator g, SerializerProvider p) throws IOException {
                g.writeStartObject();
                g.writeObjectField("field", v.data);
                g.writeFieldName("object");
                g.writeObject(v.data);
                g.writeEndObject();
            }
        }
    }

    /** C: a serializer writing a nested value with {@code gen.writeObject} (the mapper's INDENT_OUTPUT then applies). */
    @JsonSerialize(using = NestedObject.Writer.class)
    public static final class NestedObject {
        @Override
        public String toString() {
            return "NestedObject";
        }

        public static final class Writer extends JsonSerializer<NestedObject> {
            @Override
            public void serialize(NestedObject v, JsonGenerator g, SerializerProvider p) throws IOException {
                g.writeStartObject();
                g.writeFieldName("inner");
                g.writeObject(DiffCases.map("a", 1, "b", List.of(1, 2)));
                g.writeNumberField("after", 3);
                g.writeEndObject();
            }
        }
    }

    /** D: a serializer that changes the generator mid-write: a feature, escapes, a pretty printer. */
    @JsonSerialize(using = Toggling.Writer.class)
    public static final class Toggling {
        @Override
        public String toString() {
            return "Toggling";
        }

        public static final class Writer extends JsonSerializer<Toggling> {
            @Override
            @SuppressWarnings("deprecation")
            public void serialize(Toggling v, JsonGenerator g, SerializerProvider p) throws IOException {
                g.writeStartArray();
                g.enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);
                g.writeNumber(new BigDecimal("1E+3"));
                g.disable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);
                g.writeNumber(new BigDecimal("1E+3"));
                g.setCharacterEscapes(new DiffTypes.AngleEscapes());
                g.writeString("<a>");
                g.setPrettyPrinter(new MinimalPrettyPrinter("|"));
                g.writeString("b");
                g.writeEndArray();
            }
        }
    }

    /** J: a serializer that writes what it sees of its generator. */
    @JsonSerialize(using = Inspecting.Writer.class)
    public static final class Inspecting {
        @Override
        public String toString() {
            return "Inspecting";
        }

        public static final class Writer extends JsonSerializer<Inspecting> {
            @Override
            public void serialize(Inspecting v, JsonGenerator g, SerializerProvider p) throws IOException {
                g.writeStartObject();
                g.writeBooleanField("target", g.getOutputTarget() != null);
                g.writeBooleanField("binary", g.canWriteBinaryNatively());
                g.writeBooleanField("typeIds", g.canWriteTypeId());
                g.writeBooleanField("escapes", g.getCharacterEscapes() != null);
                g.writeBooleanField("highest", g.getHighestEscapedChar() != 0);
                g.writeStringField("class", g.getClass().getSimpleName().contains("Token") ? "tokens" : "generator");
                g.writeEndObject();
            }
        }
    }

    /** H: a serializer that fails on its first run for this value and succeeds when run again. */
    @JsonSerialize(using = FailsOnce.Writer.class)
    public static final class FailsOnce {
        int runs;

        @Override
        public String toString() {
            return "FailsOnce";
        }

        public static final class Writer extends JsonSerializer<FailsOnce> {
            @Override
            public void serialize(FailsOnce v, JsonGenerator g, SerializerProvider p) throws IOException {
                g.writeStartObject();
                g.writeNumberField("before", 1);
                if (++v.runs == 1) {
                    throw new IllegalStateException("first run fails");
                }
                g.writeNumberField("run", v.runs);
                g.writeEndObject();
            }
        }
    }

    /** G: read back into a {@code float}. */
    public static final class FloatHolder {
        public float f;
        public double d;

        @Override
        public String toString() {
            return f + "/" + d;
        }
    }

    /** E: escapes that change the value: '<' written as the escape of '>'. */
    public static final class ValueChangingEscapes extends CharacterEscapes {
        private static final long serialVersionUID = 1L;
        private final int[] codes;

        public ValueChangingEscapes() {
            codes = standardAsciiEscapesForJSON();
            codes['<'] = CharacterEscapes.ESCAPE_CUSTOM;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return codes;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            return ch == '<' ? new SerializedString("\\u003E") : null;
        }
    }

    static Map<String, Object> floats() {
        // 1 + 2^-24: a double exactly between two floats; its shortest text parses to the upper float
        return DiffCases.map("f", 1 + Math.pow(2, -24), "d", 0.1);
    }
}
