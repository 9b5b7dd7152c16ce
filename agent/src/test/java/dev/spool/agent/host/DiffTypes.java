package dev.spool.agent.host;

import com.fasterxml.jackson.annotation.JsonFilter;
import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonRawValue;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.annotation.JsonView;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/** The value types of the capture differential ({@link DiffCases}): annotations, custom serializers, escapes. */
public final class DiffTypes {

    private DiffTypes() { }

    public enum Color { RED, GREEN;
        @Override
        public String toString() {
            return name().toLowerCase();
        }
    }

    public static final class Views {
        public static final class Public { }
        public static final class Internal { }
    }

    public static final class Sample {
        public String name = "sample";
        public int count = 3;
        public long big = 1L << 35;
        public double ratio = 2.5;
        public float f = 1.1f;
        public BigDecimal money = new BigDecimal("10.10");
        @JsonView(Views.Internal.class)
        public String secret = "hidden";
        public Color color = Color.RED;
        public List<Object> things = new ArrayList<>(List.of(1, "x"));

        @Override
        public String toString() {
            return name + "," + count + "," + big + "," + ratio + "," + f + "," + money + "," + secret + "," + color + "," + things;
        }
    }

    public static final class Raw {
        @JsonRawValue
        public String json = "{\"inner\":[1,2.50,true]}";
        public int n = 1;

        @Override
        public String toString() {
            return json + n;
        }
    }

    @JsonSerialize(using = RawWriterSerializer.class)
    public static final class RawWriter {
        @Override
        public String toString() {
            return "RawWriter";
        }

    }

    public static final class RawWriterSerializer extends JsonSerializer<RawWriter> {
        @Override
        public void serialize(RawWriter v, JsonGenerator g, SerializerProvider p) throws IOException {
            g.writeStartObject();
            g.writeFieldName("raw");
            g.writeRawValue("[1, 2]");
            g.writeRaw(' ');
            g.writeEndObject();
        }
    }

    @JsonSerialize(using = NumberTextSerializer.class)
    public static final class NumberText {
        @Override
        public String toString() {
            return "NumberText";
        }

    }

    public static final class NumberTextSerializer extends JsonSerializer<NumberText> {
        @Override
        public void serialize(NumberText v, JsonGenerator g, SerializerProvider p) throws IOException {
            g.writeStartArray();
            g.writeNumber("12.500");
            g.writeNumber((short) 4);
            g.writeString(new char[] {'c', 'h'}, 0, 2);
            g.writeEndArray();
        }
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "kind")
    @JsonSubTypes({@JsonSubTypes.Type(value = Cat.class, name = "cat"), @JsonSubTypes.Type(value = Dog.class, name = "dog")})
    public abstract static class Animal {
        public String name = "rex";
    }

    public static final class Cat extends Animal {
        @Override
        public String toString() {
            return "cat";
        }

        public int lives = 9;
    }

    public static final class Dog extends Animal {
        @Override
        public String toString() {
            return "dog";
        }

        public double weight = 12.5;
    }

    public static final class Zoo {
        public List<Animal> animals = List.of(new Cat(), new Dog());
        public Animal star = new Dog();

        @Override
        public String toString() {
            return "zoo";
        }
    }

    @JsonFilter("only")
    public static final class Filtered {
        public String kept = "k";
        public String dropped = "d";

        @Override
        public String toString() {
            return kept + dropped;
        }
    }

    public static final class Empty {
        @Override
        public String toString() {
            return "Empty";
        }

    }

    public static final class Failing {
        @Override
        public String toString() {
            return "Failing";
        }

        public String getBoom() {
            throw new IllegalStateException("serializer failure at the call");
        }
    }

    /**
     * Written by a custom serializer that breaks the structure a generator checks: a value inside
     * an object with no field name ({@code value}), or an object closed as an array. Plain Jackson
     * throws at the call; a {@code TokenBuffer} takes both without a word.
     */
    @JsonSerialize(using = BrokenStructure.Writer.class)
    public static final class BrokenStructure {
        final boolean mismatchedEnd;

        public BrokenStructure(boolean mismatchedEnd) {
            this.mismatchedEnd = mismatchedEnd;
        }

        @Override
        public String toString() {
            return "BrokenStructure";
        }

        public static final class Writer extends JsonSerializer<BrokenStructure> {
            @Override
            public void serialize(BrokenStructure v, JsonGenerator g, SerializerProvider p) throws IOException {
                g.writeStartObject();
                if (v.mismatchedEnd) {
                    g.writeEndArray();
                    return;
                }
                g.writeNumber(1);
                g.writeEndObject();
            }
        }
    }

    public static final class DecimalShape {
        @JsonFormat(shape = JsonFormat.Shape.STRING)
        public BigDecimal amount = new BigDecimal("1E+3");
        public BigDecimal plain = new BigDecimal("2E+2");

        @Override
        public String toString() {
            return amount + "/" + plain;
        }
    }

    /** Escapes '<' and '>' as unicode escapes (a host's own CharacterEscapes). */
    public static final class AngleEscapes extends CharacterEscapes {
        private static final long serialVersionUID = 1L;
        private final int[] codes;

        public AngleEscapes() {
            codes = standardAsciiEscapesForJSON();
            codes['<'] = CharacterEscapes.ESCAPE_STANDARD;
            codes['>'] = CharacterEscapes.ESCAPE_STANDARD;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return codes;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            return null;
        }
    }
}
