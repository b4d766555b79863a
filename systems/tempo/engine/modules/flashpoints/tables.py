"""The Flashpoints module as data (tempo-flashpoints.md §A2, §B7 limit, §B3 descriptive bonuses).

Names and numbers are the module's; the summaries are our own short paraphrases.
"""

from __future__ import annotations

from typing import Any

RULE = "tempo-flashpoints.md §A2"

RANKS: list[dict[str, Any]] = [
    {"key": "world_class", "name": "World Class", "modifier": 8, "count": 1, "benefit_picks": 2,
     "variants_allowed": True},
    {"key": "elite", "name": "Elite", "modifier": 6, "count": 2, "benefit_picks": 1},
    {"key": "seasoned", "name": "Seasoned", "modifier": 4, "count": 2},
    {"key": "trained", "name": "Trained", "modifier": 2, "count": 2},
    {"key": "untrained", "name": "Untrained", "modifier": 0, "count": 1},
]  # fmt: skip

ASPECT_SLOTS: list[dict[str, Any]] = [
    {"key": "primary", "label": "Primary", "anchor_required": True,
     "summary": "The one label that sums the agent up; it sets the agent's niche."},
    {"key": "origin", "label": "Origin", "anchor_required": True,
     "summary": "Where the agent comes from: family, schooling, upbringing."},
    {"key": "service", "label": "Service", "anchor_required": True,
     "summary": "How the agent came to the agency, or earlier service before the team."},
    {"key": "flashpoint_1", "label": "Flashpoint 1", "anchor_required": True,
     "summary": "A past operation of the team, agreed by the players and the GM."},
    {"key": "flashpoint_2", "label": "Flashpoint 2", "anchor_required": True,
     "summary": "A second past operation of the team."},
]  # fmt: skip

ROLES: list[dict[str, Any]] = [
    {
        "key": "athlete",
        "name": "Athlete",
        "summary": "Running, climbing, jumping; the default for physical tasks no other role covers.",
        "benefits": [
            {"key": "mobility", "name": "Mobility",
             "summary": "Keeps full speed through terrain that would slow anyone else."},
            {"key": "brute", "name": "Brute",
             "summary": "Short bursts of great strength: snapping bonds, forcing doors."},
        ],
    },
    {
        "key": "diplomat",
        "name": "Diplomat",
        "summary": "Getting on with people: charm, friendship, lies. Reading people is Observer.",
        "benefits": [
            {"key": "subtle_inquiry", "name": "Subtle Inquiry",
             "summary": "Name one question to the GM beforehand; a fair conversation yields its answer."},
            {"key": "plant_seed", "name": "Plant Seed",
             "summary": "A short talk leaves an idea lodged in someone's mind (not mind control)."},
            {"key": "gambler", "name": "Gambler",
             "summary": "Rolls Diplomat instead of plain luck (+0) in games of chance against others.",
             "substitution": {"role": "diplomat", "instead_of": "luck", "when": "games of chance"}},
            {"key": "dangerous_grace", "name": "Dangerous Grace",
             "summary": "Where etiquette rules, cause a social blunder or prevent one (own included)."},
        ],
    },
    {
        "key": "observer",
        "name": "Observer",
        "summary": "Noticing things and working out what is going on.",
        "benefits": [
            {"key": "cold_read", "name": "Cold Read",
             "summary": "On entering a scene, ask one of four questions (most dangerous person, "
                        "most important person, who is watching, fastest exit) for an honest answer."},
            {"key": "faces_open_book", "name": "Faces Are an Open Book",
             "summary": "After a roll against someone over deception, learn what they rolled."},
            {"key": "elementary", "name": "Elementary",
             "summary": "After finding a clue, ask for one more fact that follows from it."},
        ],
        "variants": [
            {"key": "cold_read_x2", "name": "Cold Read ×2",
             "summary": "Cold Read, but ask two of the four questions per scene."},
            {"key": "elementary_x2", "name": "Elementary ×2",
             "summary": "Elementary, but ask for two further facts per clue."},
        ],
    },
    {
        "key": "politician",
        "name": "Politician",
        "summary": "Power structures, orders, law and paperwork; requisitions and calling for support.",
        "benefits": [
            {"key": "little_bit_of_law", "name": "A Little Bit of Law",
             "summary": "A qualified lawyer with papers; can bluff international law where they speak "
                        "the language."},
            {"key": "sop", "name": "SOP",
             "summary": "Knows how any large organization is required to act and can spot one on sight."},
            {"key": "the_man", "name": "The Man",
             "summary": "Someone of real weight (major shareholder, royalty) who moves among the powerful."},
        ],
        "variants": [
            {"key": "the_man_focus", "name": "The Man (focus)", "needs_approval": True,
             "summary": "One of the handful of hidden figures who steer events; the table must agree."},
        ],
    },
    {
        "key": "scholar",
        "name": "Scholar",
        "summary": "Knowing things and declaring facts; the fallback role when nothing else fits.",
        "benefits": [
            {"key": "linguist", "name": "Linguist", "summary": "Speaks whatever language turns up."},
            {"key": "great_mind", "name": "Great Mind", "needs_field": True,
             "summary": "A published authority in a field: one own aspect free on Scholar rolls in it, "
                        "and Scholar in place of Diplomat among its scholars.",
             "free_own_aspect_on": "scholar",
             "substitution": {"role": "scholar", "instead_of": "diplomat",
                              "when": "with scholars of the same field"}},
            {"key": "pattern_recognition", "name": "Pattern Recognition",
             "summary": "Given time with a situation's paperwork, uncover one aspect tied to it."},
        ],
        "variants": [
            {"key": "great_mind_improved", "name": "Great Mind (improved)", "needs_field": True,
             "summary": "Great Mind, as the foremost authority in the world on the field.",
             "free_own_aspect_on": "scholar",
             "substitution": {"role": "scholar", "instead_of": "diplomat",
                              "when": "with scholars of the same field"}},
        ],
    },
    {
        "key": "soldier",
        "name": "Soldier",
        "summary": "Every kind of violence: firearms, fists, whatever is at hand.",
        "benefits": [
            {"key": "heavy_weapons", "name": "Heavy Weapons",
             "summary": "Handles big weapons, rocket launchers to tanks, however complex."},
            {"key": "martial_arts", "name": "Martial Arts",
             "summary": "Armed foes get no superiority in close combat; untrained unarmed foes give it."},
            {"key": "tactician", "name": "Tactician",
             "summary": "Rolls Soldier instead of Observer in a fight.",
             "substitution": {"role": "soldier", "instead_of": "observer", "when": "during a fight"}},
        ],
    },
    {
        "key": "technician",
        "name": "Technician",
        "summary": "Repairing, understanding and running machines, cars included.",
        "benefits": [
            {"key": "pilot", "name": "Pilot",
             "summary": "Can operate any vehicle, including aircraft and boats."},
            {"key": "hacker", "name": "Hacker",
             "summary": "Computers cooperate as they do in early-1980s films."},
            {"key": "gadgeteer", "name": "Gadgeteer",
             "summary": "Sensible kit is at hand without a fate point; bigger items get improvised."},
        ],
    },
    {
        "key": "thief",
        "name": "Thief",
        "summary": "Stealth, deception and theft.",
        "benefits": [
            {"key": "fast_hands", "name": "Fast Hands",
             "summary": "Sleight of hand even amid fights, chases and chaos."},
            {"key": "face_in_a_crowd", "name": "Face in a Crowd",
             "summary": "Hides in plain sight wherever there are people to blend into."},
            {"key": "magician", "name": "Magician", "summary": "An accomplished stage magician."},
        ],
    },
]  # fmt: skip

CAMPAIGN_ASPECTS: list[str] = ["TRUST NO ONE"]  # §A2 campaign aspect, L519

FLASHPOINTS_DATA: dict[str, Any] = {
    "key": "flashpoints",
    "label": "Flashpoints",
    "rule": RULE,
    "ranks": RANKS,
    "roles": ROLES,
    "aspect_slots": ASPECT_SLOTS,
    "anchor_kinds": "a person, place or thing",  # §E14: the module's wider anchor wins
    "campaign_aspects": CAMPAIGN_ASPECTS,
    "own_aspects_per_roll": 1,  # §B7 Flashpoints limit
    "descriptive_bonuses_stack": False,  # §B3 descriptive bonuses
    "descriptive_bonus": 1,
}
