import Testing
@testable import DeeplinkerCore

/// The examples of the TOML 1.0 specification, in its order: the
/// valid ones with the values they must give, the ones it marks INVALID with where and why.
struct TOMLSpecExampleTests {
    @Test(arguments: [
        // Overview.
        ("""
        # This is a TOML document

        title = "TOML Example"

        [owner]
        name = "Tom Preston-Werner"
        dob = 1979-05-27T07:32:00-08:00

        [database]
        enabled = true
        ports = [ 8000, 8001, 8002 ]
        data = [ ["delta", "phi"], [3.14] ]
        temp_targets = { cpu = 79.5, case = 72.0 }

        [servers]

        [servers.alpha]
        ip = "10.0.0.1"
        role = "frontend"

        [servers.beta]
        ip = "10.0.0.2"
        role = "backend"
        """,
         #"{title: "TOML Example", owner: {name: "Tom Preston-Werner", dob: odt(1979-05-27T07:32:00-08:00)}, database: {enabled: true, ports: [8000, 8001, 8002], data: [["delta", "phi"], [3.14]], temp_targets: {cpu: 79.5, case: 72.0}}, servers: {alpha: {ip: "10.0.0.1", role: "frontend"}, beta: {ip: "10.0.0.2", role: "backend"}}}"#),
        // Comment.
        ("""
        # This is a full-line comment
        key = "value"  # This is a comment at the end of a line
        another = "# This is not a comment"
        """, ##"{key: "value", another: "# This is not a comment"}"##),
        // Keys.
        ("key = \"value\"\nbare_key = \"value\"\nbare-key = \"value\"\n1234 = \"value\"",
         #"{key: "value", bare_key: "value", bare-key: "value", 1234: "value"}"#),
        ("""
        "127.0.0.1" = "value"
        "character encoding" = "value"
        "ʎǝʞ" = "value"
        'key2' = "value"
        'quoted "value"' = "value"
        """, #"{"127.0.0.1": "value", "character encoding": "value", "ʎǝʞ": "value", key2: "value", "quoted \"value\"": "value"}"#),
        ("\"\" = \"blank\"     # VALID but discouraged", #"{"": "blank"}"#),
        ("'' = 'blank'     # VALID but discouraged", #"{"": "blank"}"#),
        ("""
        name = "Orange"
        physical.color = "orange"
        physical.shape = "round"
        site."google.com" = true
        """, #"{name: "Orange", physical: {color: "orange", shape: "round"}, site: {"google.com": true}}"#),
        ("""
        fruit.name = "banana"     # this is best practice
        fruit. color = "yellow"    # same as fruit.color
        fruit . flavor = "banana"   # same as fruit.flavor
        """, #"{fruit: {name: "banana", color: "yellow", flavor: "banana"}}"#),
        ("""
        # This makes the key "fruit" into a table.
        fruit.apple.smooth = true

        # So then you can add to the table "fruit" like so:
        fruit.orange = 2
        """, "{fruit: {apple: {smooth: true}, orange: 2}}"),
        ("""
        # VALID BUT DISCOURAGED

        apple.type = "fruit"
        orange.type = "fruit"

        apple.skin = "thin"
        orange.skin = "thick"

        apple.color = "red"
        orange.color = "orange"
        """, #"{apple: {type: "fruit", skin: "thin", color: "red"}, orange: {type: "fruit", skin: "thick", color: "orange"}}"#),
        ("3.14159 = \"pi\"", #"{3: {14159: "pi"}}"#),
        // Strings.
        (#"str = "I'm a string. \"You can quote me\". Name\tJos\u00E9\nLocation\tSF.""#,
         #"{str: "I\'m a string. \"You can quote me\". Name\tJosé\nLocation\tSF."}"#),
        ("str1 = \"\"\"\nRoses are red\nViolets are blue\"\"\"", #"{str1: "Roses are red\nViolets are blue"}"#),
        (#"""
        # The following strings are byte-for-byte equivalent:
        str1 = "The quick brown fox jumps over the lazy dog."

        str2 = """
        The quick brown \


          fox jumps over \
            the lazy dog."""

        str3 = """\
               The quick brown \
               fox jumps over \
               the lazy dog.\
               """
        """#, #"{str1: "The quick brown fox jumps over the lazy dog.", str2: "The quick brown fox jumps over the lazy dog.", str3: "The quick brown fox jumps over the lazy dog."}"#),
        (#"""
        str4 = """Here are two quotation marks: "". Simple enough."""
        # str5 = """Here are three quotation marks: """."""  # INVALID
        str5 = """Here are three quotation marks: ""\"."""
        str6 = """Here are fifteen quotation marks: ""\"""\"""\"""\"""\"."""

        # "This," she said, "is just a pointless statement."
        str7 = """"This," she said, "is just a pointless statement.""""
        """#, #"{str4: "Here are two quotation marks: \"\". Simple enough.", str5: "Here are three quotation marks: \"\"\".", str6: "Here are fifteen quotation marks: \"\"\"\"\"\"\"\"\"\"\"\"\"\"\".", str7: "\"This,\" she said, \"is just a pointless statement.\""}"#),
        (#"""
        # What you see is what you get.
        winpath  = 'C:\Users\nodejs\templates'
        winpath2 = '\\ServerX\admin$\system32\'
        quoted   = 'Tom "Dubs" Preston-Werner'
        regex    = '<\i\c*\s*>'
        """#, #"{winpath: "C:\\Users\\nodejs\\templates", winpath2: "\\\\ServerX\\admin$\\system32\\", quoted: "Tom \"Dubs\" Preston-Werner", regex: "<\\i\\c*\\s*>"}"#),
        (#"""
        regex2 = '''I [dw]on't need \d{2} apples'''
        lines  = '''
        The first newline is
        trimmed in raw strings.
           All other whitespace
           is preserved.
        '''
        """#, #"{regex2: "I [dw]on\'t need \\d{2} apples", lines: "The first newline is\ntrimmed in raw strings.\n   All other whitespace\n   is preserved.\n"}"#),
        (#"""
        quot15 = '''Here are fifteen quotation marks: """""""""""""""'''

        # apos15 = '''Here are fifteen apostrophes: ''''''''''''''''''  # INVALID
        apos15 = "Here are fifteen apostrophes: '''''''''''''''"

        # 'That,' she said, 'is still pointless.'
        str = ''''That,' she said, 'is still pointless.''''
        """#, #"{quot15: "Here are fifteen quotation marks: \"\"\"\"\"\"\"\"\"\"\"\"\"\"\"", apos15: "Here are fifteen apostrophes: \'\'\'\'\'\'\'\'\'\'\'\'\'\'\'", str: "\'That,\' she said, \'is still pointless.\'"}"#),
        // Integers.
        ("""
        int1 = +99
        int2 = 42
        int3 = 0
        int4 = -17
        int5 = 1_000
        int6 = 5_349_221
        int7 = 53_49_221  # Indian number system grouping
        int8 = 1_2_3_4_5  # VALID but discouraged
        # hexadecimal with prefix `0x`
        hex1 = 0xDEADBEEF
        hex2 = 0xdeadbeef
        hex3 = 0xdead_beef
        # octal with prefix `0o`
        oct1 = 0o01234567
        oct2 = 0o755 # useful for Unix file permissions
        # binary with prefix `0b`
        bin1 = 0b11010110
        """, "{int1: 99, int2: 42, int3: 0, int4: -17, int5: 1000, int6: 5349221, int7: 5349221, int8: 12345, hex1: 3735928559, hex2: 3735928559, hex3: 3735928559, oct1: 342391, oct2: 493, bin1: 214}"),
        // Floats.
        ("""
        # fractional
        flt1 = +1.0
        flt2 = 3.1415
        flt3 = -0.01

        # exponent
        flt4 = 5e+22
        flt5 = 1e06
        flt6 = -2E-2

        # both
        flt7 = 6.626e-34
        flt8 = 224_617.445_991_228
        """, "{flt1: 1.0, flt2: 3.1415, flt3: -0.01, flt4: 5e+22, flt5: 1000000.0, flt6: -0.02, flt7: 6.626e-34, flt8: 224617.445991228}"),
        ("""
        # infinity
        sf1 = inf  # positive infinity
        sf2 = +inf # positive infinity
        sf3 = -inf # negative infinity

        # not a number
        sf4 = nan  # actual sNaN/qNaN encoding is implementation-specific
        sf5 = +nan # same as `nan`
        sf6 = -nan # valid, actual encoding is implementation-specific
        """, "{sf1: inf, sf2: inf, sf3: -inf, sf4: nan, sf5: nan, sf6: -nan}"),
        // Booleans and date-times.
        ("bool1 = true\nbool2 = false", "{bool1: true, bool2: false}"),
        ("""
        odt1 = 1979-05-27T07:32:00Z
        odt2 = 1979-05-27T00:32:00-07:00
        odt3 = 1979-05-27T00:32:00.999999-07:00
        odt4 = 1979-05-27 07:32:00Z
        ldt1 = 1979-05-27T07:32:00
        ldt2 = 1979-05-27T00:32:00.999999
        ld1 = 1979-05-27
        lt1 = 07:32:00
        lt2 = 00:32:00.999999
        """, "{odt1: odt(1979-05-27T07:32:00Z), odt2: odt(1979-05-27T00:32:00-07:00), odt3: odt(1979-05-27T00:32:00.999999-07:00), odt4: odt(1979-05-27 07:32:00Z), ldt1: ldt(1979-05-27T07:32:00), ldt2: ldt(1979-05-27T00:32:00.999999), ld1: ld(1979-05-27), lt1: lt(07:32:00), lt2: lt(00:32:00.999999)}"),
        // Arrays.
        ("""
        integers = [ 1, 2, 3 ]
        colors = [ "red", "yellow", "green" ]
        nested_arrays_of_ints = [ [ 1, 2 ], [3, 4, 5] ]
        nested_mixed_array = [ [ 1, 2 ], ["a", "b", "c"] ]
        string_array = [ "all", 'strings', \"\"\"are the same\"\"\", '''type''' ]

        # Mixed-type arrays are allowed
        numbers = [ 0.1, 0.2, 0.5, 1, 2, 5 ]
        contributors = [
          "Foo Bar <foo@example.com>",
          { name = "Baz Qux", email = "bazqux@example.com", url = "https://example.com/bazqux" }
        ]
        """, #"{integers: [1, 2, 3], colors: ["red", "yellow", "green"], nested_arrays_of_ints: [[1, 2], [3, 4, 5]], nested_mixed_array: [[1, 2], ["a", "b", "c"]], string_array: ["all", "strings", "are the same", "type"], numbers: [0.1, 0.2, 0.5, 1, 2, 5], contributors: ["Foo Bar <foo@example.com>", {name: "Baz Qux", email: "bazqux@example.com", url: "https://example.com/bazqux"}]}"#),
        ("""
        integers2 = [
          1, 2, 3
        ]

        integers3 = [
          1,
          2, # this is ok
        ]
        """, "{integers2: [1, 2, 3], integers3: [1, 2]}"),
        // Tables.
        ("""
        [table-1]
        key1 = "some string"
        key2 = 123

        [table-2]
        key1 = "another string"
        key2 = 456
        """, #"{table-1: {key1: "some string", key2: 123}, table-2: {key1: "another string", key2: 456}}"#),
        ("[dog.\"tater.man\"]\ntype.name = \"pug\"", #"{dog: {"tater.man": {type: {name: "pug"}}}}"#),
        ("""
        [a.b.c]            # this is best practice
        [ d.e.f ]          # same as [d.e.f]
        [ g .  h  . i ]    # same as [g.h.i]
        [ j . "ʞ" . 'l' ]  # same as [j."ʞ".'l']
        """, #"{a: {b: {c: {}}}, d: {e: {f: {}}}, g: {h: {i: {}}}, j: {"ʞ": {l: {}}}}"#),
        ("""
        # [x] you
        # [x.y] don't
        # [x.y.z] need these
        [x.y.z.w] # for this to work

        [x] # defining a super-table afterward is ok
        """, "{x: {y: {z: {w: {}}}}}"),
        ("""
        # VALID BUT DISCOURAGED
        [fruit.apple]
        [animal]
        [fruit.orange]
        """, "{fruit: {apple: {}, orange: {}}, animal: {}}"),
        ("""
        # Top-level table begins.
        name = "Fido"
        breed = "pug"

        # Top-level table ends.
        [owner]
        name = "Regina Dogman"
        member_since = 1999-08-04
        """, #"{name: "Fido", breed: "pug", owner: {name: "Regina Dogman", member_since: ld(1999-08-04)}}"#),
        ("""
        fruit.apple.color = "red"
        # Defines a table named fruit
        # Defines a table named fruit.apple

        fruit.apple.taste.sweet = true
        # Defines a table named fruit.apple.taste
        # fruit and fruit.apple were already created
        """, #"{fruit: {apple: {color: "red", taste: {sweet: true}}}}"#),
        ("""
        [fruit]
        apple.color = "red"
        apple.taste.sweet = true

        # [fruit.apple]  # INVALID
        # [fruit.apple.taste]  # INVALID

        [fruit.apple.texture]  # you can add sub-tables
        smooth = true
        """, #"{fruit: {apple: {color: "red", taste: {sweet: true}, texture: {smooth: true}}}}"#),
        // Inline tables.
        ("""
        name = { first = "Tom", last = "Preston-Werner" }
        point = { x = 1, y = 2 }
        animal = { type.name = "pug" }
        """, #"{name: {first: "Tom", last: "Preston-Werner"}, point: {x: 1, y: 2}, animal: {type: {name: "pug"}}}"#),
        // Arrays of tables.
        ("""
        [[products]]
        name = "Hammer"
        sku = 738594937

        [[products]]  # empty table within the array

        [[products]]
        name = "Nail"
        sku = 284758393

        color = "gray"
        """, #"{products: [{name: "Hammer", sku: 738594937}, {}, {name: "Nail", sku: 284758393, color: "gray"}]}"#),
        ("""
        [[fruits]]
        name = "apple"

        [fruits.physical]  # subtable
        color = "red"
        shape = "round"

        [[fruits.varieties]]  # nested array of tables
        name = "red delicious"

        [[fruits.varieties]]
        name = "granny smith"


        [[fruits]]
        name = "banana"

        [[fruits.varieties]]
        name = "plantain"
        """, #"{fruits: [{name: "apple", physical: {color: "red", shape: "round"}, varieties: [{name: "red delicious"}, {name: "granny smith"}]}, {name: "banana", varieties: [{name: "plantain"}]}]}"#),
        ("points = [ { x = 1, y = 2, z = 3 },\n           { x = 7, y = 8, z = 9 },\n           { x = 2, y = 4, z = 8 } ]",
         "{points: [{x: 1, y: 2, z: 3}, {x: 7, y: 8, z: 9}, {x: 2, y: 4, z: 8}]}"),
    ] as [(String, String)])
    func validExample(text: String, expected: String) {
        #expect(TOMLTestRendering.parse(text) == expected)
    }

    @Test(arguments: [
        ("key = # INVALID", "1:7", "expected a value, found '#'"),
        ("first = \"Tom\" last = \"Preston-Werner\" # INVALID", "1:15", "expected a newline or a comment after the value, found 'l'"),
        ("= \"no key name\"  # INVALID", "1:1", "expected a key, a [table] header or a comment, found '='"),
        ("# DO NOT DO THIS\nname = \"Tom\"\nname = \"Pradyun\"", "3:8", "key name is defined twice (first at line 2, column 1)"),
        ("# THIS WILL NOT WORK\nspelling = \"favorite\"\n\"spelling\" = \"favourite\"", "3:14", "key spelling is defined twice (first at line 2, column 1)"),
        ("""
        # THE FOLLOWING IS INVALID

        # This defines the value of fruit.apple to be an integer.
        fruit.apple = 1

        # But then this treats fruit.apple like it's a table.
        # You can't turn an integer into a table.
        fruit.apple.smooth = true
        """, "8:22", "fruit.apple is an integer (at line 4, column 15), not a table"),
        (#"str5 = """Here are three quotation marks: """."""  # INVALID"#, "1:46", "expected a newline or a comment after the value, found '.'"),
        ("apos15 = '''Here are fifteen apostrophes: ''''''''''''''''''  # INVALID", "1:48", "expected a newline or a comment after the value, found '''"),
        ("invalid_float_1 = .7", "1:19", "a decimal point must have digits on both sides"),
        ("invalid_float_2 = 7.", "1:19", "a decimal point must have digits on both sides"),
        ("invalid_float_3 = 3.e+20", "1:19", "a decimal point must have digits on both sides"),
        ("# DO NOT DO THIS\n\n[fruit]\napple = \"red\"\n\n[fruit]\norange = \"orange\"", "6:1", "table [fruit] is defined twice (first at line 3, column 1)"),
        ("# DO NOT DO THIS EITHER\n\n[fruit]\napple = \"red\"\n\n[fruit.apple]\ntexture = \"smooth\"", "6:1", "fruit.apple is a string (at line 4, column 9), not a table"),
        ("[fruit]\napple.color = \"red\"\napple.taste.sweet = true\n\n[fruit.apple]  # INVALID", "5:1", "table fruit.apple is already defined by dotted keys (at line 2, column 1)"),
        ("[fruit]\napple.color = \"red\"\napple.taste.sweet = true\n\n[fruit.apple.taste]  # INVALID", "5:1", "table fruit.apple.taste is already defined by dotted keys (at line 3, column 7)"),
        ("[product]\ntype = { name = \"Nail\" }\ntype.edible = false  # INVALID", "3:15", "product.type is an inline table (at line 2, column 8), which cannot be added to"),
        ("[product]\ntype.name = \"Nail\"\ntype = { edible = false }  # INVALID", "3:8", "key product.type is defined twice (first at line 2, column 1)"),
        ("""
        # INVALID TOML DOC
        [fruit.physical]  # subtable, but to which parent element should it belong?
        color = "red"
        shape = "round"

        [[fruit]]  # parser must throw an error upon discovering that "fruit" is
                   # an array rather than a table
        name = "apple"
        """, "6:1", "fruit is a table (at line 2, column 2), not an array of tables"),
        ("# INVALID TOML DOC\nfruits = []\n\n[[fruits]] # Not allowed", "4:1", "fruits is a static array (at line 2, column 10); [[fruits]] cannot append to it"),
        ("""
        # INVALID TOML DOC
        [[fruits]]
        name = "apple"

        [[fruits.varieties]]
        name = "red delicious"

        # INVALID: This table conflicts with the previous array of tables
        [fruits.varieties]
        name = "granny smith"
        """, "9:1", "fruits.varieties is an array of tables (at line 5, column 1); add an element with [[fruits.varieties]]"),
        ("""
        # INVALID TOML DOC
        [[fruits]]
        name = "apple"

        [fruits.physical]
        color = "red"
        shape = "round"

        # INVALID: This array of tables conflicts with the previous table
        [[fruits.physical]]
        color = "green"
        """, "10:1", "fruits.physical is a table (at line 5, column 1), not an array of tables"),
    ] as [(String, String, String)])
    func invalidExample(text: String, location: String, message: String) {
        let result = TOMLTestRendering.parse(text)
        #expect(result == "error \(location): \(message)" || (result.hasPrefix("error \(location): ") && result.contains(message)), "\(result)")
    }
}
