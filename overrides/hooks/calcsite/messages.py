"""Words of the calculator widgets in each language.

The catalogs are keyed by the English text (as gettext is): labels, units and
legends come from the core's declarations in English, the widget's own
strings from :data:`UI`. English needs no catalog. A language is added by
adding a catalog here (and its pages in ``docs/``); ``tests/site/test_messages.py``
fails until every declared label, unit and legend is translated.
"""

from __future__ import annotations

__all__ = ["CATALOGS", "LANGUAGES", "UI", "translate", "tree"]

UI: dict[str, str] = {
    # Error codes of the core, worded for a reader. {bound} is formatted for the page's language.
    "required": "Enter a value.",
    "not_a_number": "Enter a number.",
    "not_an_integer": "Enter a whole number.",
    "below_minimum": "Enter {bound} or more.",
    "not_above_minimum": "Enter a number greater than {bound}.",
    "above_maximum": "Enter {bound} or less.",
    "not_divisible": "Must be a multiple of {bound}.",
    "not_a_choice": "Choose one of the listed values.",
    "tree_allreduce_only": (
        "NCCL runs a tree for all-reduce only: with sharding, the reduce-scatter and all-gather "
        "run as rings. Choose the ring."
    ),
    "too_many_layouts": (
        "More than {bound} layouts to search: check one layout instead, with the check mode."
    ),
    "unknown_field": "Not an input of this calculator.",
    "unknown_mode": "This calculator has no such mode.",
    "unknown_calculator": "No such calculator.",
    "bad_request": "The request could not be read.",
    "internal": "This case could not be computed (a fault of the calculator, not of your values).",
    # Notes of the core: a field read two ways; {value} was taken, {other} is the other reading.
    "read_grouped": (
        "Read as {value}: here the point separates thousands. For {other}, type {other}."
    ),
    # Warnings of the core.
    "super_linear": (
        "Above 100%: super-linear scaling. At the same per-device batch it usually comes "
        "from the data (each node caches its share of the dataset) or from a wrong baseline: "
        "check the single-device measurement first."
    ),
    "latency_bound": (
        "Latency outweighs bandwidth: every call pays its steps' latency. Fewer, larger calls "
        "(a larger bucket size) shorten it; without sharding, NCCL would run such all-reduces "
        "across many nodes as a tree: compare with the tree algorithm."
    ),
    "tensor_across_nodes": (
        "The tensor-parallel degree is larger than a node: every layer's collectives cross "
        "the network."
    ),
    "out_of_memory": "Does not fit: the most loaded device needs more memory than it has.",
    "no_layout": (
        "No layout splits these devices and this global batch: the batch must be a multiple "
        "of the data-parallel replicas, with t within a node dividing the heads and p the layers."
    ),
    "nothing_fits": (
        "No layout fits in a device's memory, even with ZeRO-3 and full recomputation: more "
        "devices, or more memory per device."
    ),
    # States of the widget (form[data-state]).
    "static": "Example: results for the values shown.",
    "loading": "Loading the calculator…",
    "ready": "Results for the values shown.",
    "invalid": "No results: correct the marked fields.",
    "failed": (
        "The live calculator could not start in this browser. "
        "The results below are the example for the default values."
    ),
    # Other widget text.
    "results": "Results",
    "not_applicable": "—",
    "copy_link": "Copy link to these values",
    "copied": "Link copied",
    "copy_failed": "Copy failed: the link is in the address bar",
    "noscript": (
        "The live calculator needs JavaScript. The results are the example for the values "
        "shown; the values of a shared link are not applied."
    ),
    # What a field accepts, in words; {min} and {max} are formatted for the page.
    "hint.whole": "A whole number from {min} to {max}.",
    "hint.above": "A number greater than {min}, up to {max}.",
    "hint.from": "A number from {min} to {max}.",
    "hint.up_to": "A number up to {max}.",
    "hint.optional": "Optional. {hint}",
    "last_updated": "Last updated: {date}",
    "reference.input": "Input",
    "reference.output": "Output",
    "reference.unit": "Unit",
    "reference.accepted": "Accepted values",
    "reference.default": "Default",
    # A choice's option in the reference: {value} as links and scripts write it, then its label.
    "reference.option": "{value}: {label}",
    "reference.default_mode": "{mode} (default): {label}",
    "reference.other_mode": "{mode}: {label}",
    "reference.mode": "Mode",
    # The table of how each language's page reads a typed number.
    "notation.typed": "Typed",
    "notation.page": "{language} page",
    "notation.unreadable": "not a number",
    "notation.two_ways": "{value}, with a note (not {other})",
    # The "Embed" control of a form, and the embed page's link to the full page.
    "embed.copy": "Copy embed code",
    "embed.copied": "Embed code copied",
    "embed.copy_failed": "Copy failed: the embed code is below the button",
    "embed.full_page": "{title}: the full page, with the explanation",
    # The last column of a list output (the planner's plans): each row's case in other forms.
    "table.open": "Open this case in",
    # Above a form with presets: lists that fill some fields; the first item picks none.
    "presets.legend": "Fill in from",
    "presets.none": "(as entered)",
    "presets.source": "Source:",
}

_FR: dict[str, str] = {
    "Enter a value.": "Saisissez une valeur.",
    "Enter a number.": "Saisissez un nombre.",
    "Enter a whole number.": "Saisissez un nombre entier.",
    "Enter {bound} or more.": "Saisissez au moins {bound}.",
    "Enter a number greater than {bound}.": "Saisissez un nombre supérieur à {bound}.",
    "Enter {bound} or less.": "Saisissez au plus {bound}.",
    "Must be a multiple of {bound}.": "Doit être un multiple de {bound}.",
    UI["not_a_choice"]: "Choisissez l’une des valeurs de la liste.",
    UI["tree_allreduce_only"]: (
        "NCCL n’exécute en arbre que la réduction globale\u00a0: avec partitionnement, le "
        "reduce-scatter et l’all-gather s’exécutent en anneau. Choisissez l’anneau."
    ),
    "Not an input of this calculator.": "Ce champ n’appartient pas à ce calculateur.",
    UI["unknown_mode"]: "Ce calculateur n’a pas ce mode.",
    UI["unknown_calculator"]: "Ce calculateur n’existe pas.",
    UI["bad_request"]: "La demande n’a pas pu être lue.",
    UI["internal"]: (
        "Ce cas n’a pas pu être calculé (un défaut du calculateur, pas de vos valeurs)."
    ),
    UI["read_grouped"]: "Lu comme {value}. Pour {other}, saisissez {other}.",
    UI["super_linear"]: (
        "Plus de 100\u00a0%\u00a0: mise à l’échelle superlinéaire. À lot par accélérateur égal, "
        "elle vient en général des données (chaque nœud garde sa part du jeu de données en "
        "cache) ou d’une référence faussée\u00a0: vérifiez d’abord la mesure sur un seul "
        "accélérateur."
    ),
    UI["static"]: "Exemple : résultats pour les valeurs affichées.",
    UI["loading"]: "Chargement du calculateur…",
    UI["ready"]: "Résultats pour les valeurs affichées.",
    UI["invalid"]: "Pas de résultat : corrigez les champs signalés.",
    UI["failed"]: (
        "Le calcul en direct n’a pas pu démarrer dans ce navigateur. "
        "Les résultats ci-dessous sont l’exemple des valeurs par défaut."
    ),
    "Results": "Résultats",
    "Copy link to these values": "Copier le lien vers ces valeurs",
    "Link copied": "Lien copié",
    "Copy failed: the link is in the address bar": (
        "Échec de la copie : le lien est dans la barre d’adresse"
    ),
    "Last updated: {date}": "Dernière mise à jour : {date}",
    "Input": "Entrée",
    "Output": "Résultat",
    "Unit": "Unité",
    "Accepted values": "Valeurs acceptées",
    "Default": "Par défaut",
    UI["reference.option"]: "{value}\u00a0: {label}",
    "{mode} (default): {label}": "{mode} (par défaut) : {label}",
    "{mode}: {label}": "{mode} : {label}",
    "Mode": "Mode",
    UI["noscript"]: (
        "Le calcul en direct a besoin de JavaScript. Les résultats sont ceux de l’exemple "
        "pour les valeurs affichées ; les valeurs d’un lien partagé ne sont pas appliquées."
    ),
    UI["hint.whole"]: "Un nombre entier de {min} à {max}.",
    UI["hint.above"]: "Un nombre supérieur à {min}, jusqu’à {max}.",
    UI["hint.from"]: "Un nombre de {min} à {max}.",
    UI["hint.up_to"]: "Un nombre jusqu’à {max}.",
    UI["hint.optional"]: "Facultatif. {hint}",
    UI["notation.typed"]: "Saisi",
    UI["notation.page"]: "Page en {language}",
    UI["notation.unreadable"]: "pas un nombre",
    UI["notation.two_ways"]: "{value}, avec une note (et non {other})",
    UI["embed.copy"]: "Copier le code d’intégration",
    UI["embed.copied"]: "Code d’intégration copié",
    UI["embed.copy_failed"]: "Échec de la copie : le code d’intégration est sous le bouton",
    UI["embed.full_page"]: "{title} : la page complète, avec les explications",
    "ten times the ideal throughput d·v": "dix fois le débit idéal d·v",
    "Must be a multiple of tp × pp × cp.": "Doit être un multiple de tp × pp × cp.",
    "Must be a multiple of the micro-batch × dp.": "Doit être un multiple du micro-lot × dp.",
    "With more than one chunk per device, must be a multiple of the stages.": (
        "Avec plus d’un segment par accélérateur, doit être un multiple du nombre d’étages."
    ),
    # Calculators, modes and legends.
    "Data-parallel scaling": "Mise à l’échelle du parallélisme de données",
    "Effective batch size": "Taille de lot effective",
    "Pipeline bubble": "Bulle du pipeline",
    "From a scaling efficiency": "À partir d’une efficacité de mise à l’échelle",
    "From a measured cluster throughput": "À partir d’un débit mesuré sur le cluster",
    "Global batch from its factors": "Lot global à partir de ses facteurs",
    "Accumulation steps for a target batch": "Pas d’accumulation pour un lot visé",
    "Bubble of a pipeline schedule": "Bulle d’un ordonnancement en pipeline",
    "Compute cluster": "Cluster de calcul",
    "Measurements": "Mesures",
    "Batch": "Lot",
    "Parallelism": "Parallélisme",
    "Pipeline schedule": "Ordonnancement du pipeline",
    # Inputs and outputs.
    "Devices": "Accélérateurs",
    "Throughput per device": "Débit par accélérateur",
    "Scaling efficiency": "Efficacité de mise à l’échelle",
    "Throughput of one device alone": "Débit d’un accélérateur seul",
    "Measured cluster throughput": "Débit mesuré du cluster",
    "Ideal throughput": "Débit idéal",
    "Actual throughput": "Débit réel",
    "Speedup": "Accélération",
    "Throughput lost to synchronisation": "Débit perdu en synchronisation",
    "Micro-batch per replica": "Micro-lot par réplique",
    "Gradient-accumulation steps": "Pas d’accumulation de gradient",
    "Devices (world size)": "Accélérateurs au total",
    "Tensor-parallel degree": "Degré de parallélisme tensoriel",
    "Pipeline-parallel degree": "Degré de parallélisme en pipeline",
    "Context-parallel degree": "Degré de parallélisme de contexte",
    "Sequence length": "Longueur de séquence",
    "Target global batch": "Lot global visé",
    "Data-parallel replicas": "Répliques en parallélisme de données",
    "Global batch": "Lot global",
    "Tokens per optimizer step": "Jetons par pas d’optimisation",
    "Micro-batches per replica per step": "Micro-lots par réplique et par pas",
    "Pipeline stages": "Étages du pipeline",
    "Micro-batches per step": "Micro-lots par pas",
    "Model chunks per device": "Segments de modèle par accélérateur",
    "Bubble relative to ideal compute time": "Bulle rapportée au temps de calcul idéal",
    "Idle share of the step": "Part d’inactivité du pas",
    "Pipeline efficiency": "Efficacité du pipeline",
    # The all-reduce estimate of data-parallel scaling.
    UI["latency_bound"]: (
        "La latence pèse plus que le débit\u00a0: chaque appel paie la latence de chacune de "
        "ses étapes. Des appels moins nombreux et plus gros (des buckets plus grands) la "
        "raccourcissent\u202f; sans partitionnement, NCCL exécuterait de telles réductions "
        "globales en arbre sur de nombreux nœuds\u00a0: comparez avec l’algorithme en arbre."
    ),
    "Estimated from the gradients' collectives": (
        "Estimation par les opérations collectives sur les gradients"
    ),
    "Gradients": "Gradients",
    "Interconnect": "Interconnexion",
    "Compute": "Calcul",
    "Gradient values (parameters)": "Valeurs de gradient (paramètres)",
    "Bytes per gradient value": "Octets par valeur de gradient",
    "Sharding": "Partitionnement",
    "None (DDP)": "Aucun (DDP)",
    "ZeRO-1 or ZeRO-2": "ZeRO-1 ou ZeRO-2",
    "ZeRO-3 or full FSDP": "ZeRO-3 ou FSDP complet",
    (
        "What each device shards: ZeRO-1 and -2 move the bytes of an all-reduce, "
        "ZeRO-3 1.5 times as many."
    ): (
        "Ce que chaque accélérateur partitionne\u00a0: ZeRO-1 et ZeRO-2 font transiter autant "
        "d’octets qu’une réduction globale, ZeRO-3 une fois et demie plus."
    ),
    "Devices per node": "Accélérateurs par nœud",
    "Bus bandwidth": "Bande passante de bus",
    "All-reduce algorithm": "Algorithme de réduction globale",
    "Ring": "Anneau",
    "Tree": "Arbre",
    (
        "How NCCL runs the all-reduce: a ring, whose latency grows with d, "
        "or a tree, whose latency grows with log2 of the nodes."
    ): (
        "Comment NCCL exécute la réduction globale\u00a0: en anneau, dont la latence croît "
        "avec d, ou en arbre, dont la latence croît avec le log2 du nombre de nœuds."
    ),
    "Latency per step inside a node": "Latence par étape dans un nœud",
    "Latency per step across nodes": "Latence par étape entre nœuds",
    "Bucket size": "Taille des buckets",
    "Compute time per step": "Temps de calcul par pas",
    "Overlap with compute": "Recouvrement par le calcul",
    "Buckets per step": "Buckets par pas",
    "Bandwidth time": "Temps dû au débit",
    "Latency time": "Temps dû à la latence",
    "Communication time": "Durée de communication",
    "Exposed communication": "Communication non masquée",
    "Estimated efficiency": "Efficacité estimée",
    "bytes": "octets",
    "byte": "octet",
    UI["too_many_layouts"]: (
        "Plus de {bound} découpages à explorer : vérifiez plutôt un seul découpage, avec le "
        "mode de vérification."
    ),
    UI["tensor_across_nodes"]: (
        "Le degré de parallélisme tensoriel dépasse un nœud : les collectives de chaque "
        "couche traversent le réseau."
    ),
    UI["out_of_memory"]: (
        "Ne tient pas : l’accélérateur le plus chargé demande plus de mémoire qu’il n’en a."
    ),
    UI["no_layout"]: (
        "Aucun découpage ne répartit ces accélérateurs et ce lot global : le lot doit être un "
        "multiple des répliques de données, t restant dans un nœud et divisant les têtes, "
        "p divisant les couches."
    ),
    UI["nothing_fits"]: (
        "Aucun découpage ne tient dans la mémoire d’un accélérateur, même avec ZeRO-3 et le "
        "recalcul complet : plus d’accélérateurs, ou plus de mémoire par accélérateur."
    ),
    # The training planner.
    "Training planner": "Planificateur d’entraînement",
    "Search the layouts": "Explorer les découpages",
    "Check a parallel layout": "Vérifier un découpage parallèle",
    "Model": "Modèle",
    "Cluster": "Cluster",
    "Layers": "Couches",
    "Hidden size": "Dimension cachée",
    "Attention heads": "Têtes d’attention",
    "Key-value heads": "Têtes clé-valeur",
    "Must divide the attention heads; a multiple of the tensor-parallel degree.": (
        "Doit diviser le nombre de têtes d’attention et être un multiple du degré de "
        "parallélisme tensoriel."
    ),
    "Must divide the attention heads.": "Doit diviser le nombre de têtes d’attention.",
    "MLP hidden size": "Dimension cachée du MLP",
    "MLP": "MLP",
    "GeLU (two matrices)": "GeLU (deux matrices)",
    "SwiGLU (three matrices)": "SwiGLU (trois matrices)",
    "GeLU, as GPT-3, or SwiGLU, as LLaMA: a third more MLP weights at the same f.": (
        "GeLU, comme GPT-3, ou SwiGLU, comme LLaMA\u00a0: un tiers de poids en plus dans le MLP "
        "à f égal."
    ),
    "Vocabulary": "Vocabulaire",
    "Must be a multiple of the tensor-parallel degree times the pipeline stages.": (
        "Doit être un multiple du degré de parallélisme tensoriel multiplié par le nombre "
        "d’étages du pipeline."
    ),
    "Peak per device": "Puissance crête par accélérateur",
    "Memory per device": "Mémoire par accélérateur",
    "Matrix-product efficiency": "Efficacité des produits matriciels",
    "Bus bandwidth inside a node": "Bande passante de bus dans un nœud",
    "Bus bandwidth of a node across nodes": "Bande passante de bus d’un nœud entre nœuds",
    "Latency per step": "Latence par étape",
    (
        "Must be a multiple of the micro-batch times the data-parallel replicas, and of that "
        "times the stages when interleaving."
    ): (
        "Doit être un multiple du micro-lot multiplié par le nombre de répliques en parallélisme "
        "de données et, avec plus d’un segment par accélérateur, de ce produit multiplié par le "
        "nombre d’étages."
    ),
    "Micro-batch": "Micro-lot",
    "Must divide the attention heads, the key-value heads and the MLP size.": (
        "Doit diviser le nombre de têtes d’attention, celui de têtes clé-valeur et la dimension "
        "cachée du MLP."
    ),
    "Must divide the layers (times the chunks when interleaving).": (
        "Doit diviser le nombre de couches (multiplié par le nombre de segments s’il y en a "
        "plus d’un)."
    ),
    "More than 1 only with more than one pipeline stage.": (
        "Supérieur à 1 seulement si le pipeline compte plus d’un étage."
    ),
    "ZeRO stage": "Niveau de ZeRO",
    "0: nothing sharded": "0\u00a0: aucun partitionnement",
    "1: optimizer states (distributed optimizer)": (
        "1\u00a0: état de l’optimiseur (optimiseur distribué)"
    ),
    "2: and gradients": "2\u00a0: et les gradients",
    "3: and weights": "3\u00a0: et les poids",
    "What the data-parallel replicas shard; 1 is Megatron-LM's distributed optimizer.": (
        "Ce que partitionnent les répliques en parallélisme de données\u202f; 1 correspond à "
        "l’optimiseur distribué de Megatron-LM."
    ),
    "Activation recomputation": "Recalcul des activations",
    "None": "Aucun",
    "Selective (attention scores)": "Sélectif (scores d’attention)",
    "Full (every layer)": "Complet (toutes les couches)",
    "What the backward pass recomputes instead of keeping.": (
        "Ce que la passe arrière recalcule au lieu de le conserver."
    ),
    "Sequence parallelism": "Parallélisme de séquence",
    "On": "Activé",
    "Off": "Désactivé",
    "Splits the LayerNorms and dropouts over the tensor-parallel ranks too.": (
        "Répartit aussi les LayerNorm et les dropouts entre les rangs du parallélisme tensoriel."
    ),
    "Parameters": "Paramètres",
    "Weights": "Poids",
    "Optimizer states": "État de l’optimiseur",
    "Activations": "Activations",
    "Tensor-parallel traffic": "Trafic du parallélisme tensoriel",
    "Pipeline traffic": "Trafic du pipeline",
    "Data-parallel traffic": "Trafic du parallélisme de données",
    "Step time": "Durée d’un pas",
    "Throughput": "Débit",
    "Model FLOP/s per device": "FLOP/s du modèle par accélérateur",
    "Model FLOPs utilisation": "Utilisation des FLOPs du modèle (MFU)",
    "Hardware FLOPs utilisation": "Utilisation des FLOPs matériels (HFU)",
    "Layouts considered": "Découpages envisagés",
    "Layouts that fit": "Découpages qui tiennent en mémoire",
    "Fastest step time": "Durée minimale d’un pas",
    "Its model FLOPs utilisation": "Son utilisation des FLOPs du modèle (MFU)",
    "GB": "Go",
    "TFLOP/s": "TFLOP/s",
    "tokens/s": "jetons/s",
    "token/s": "jeton/s",
    "s": "s",
    "GB/s": "Go/s",
    "MB": "Mo",
    "ms": "ms",
    "\u00b5s": "\u00b5s",
    # Units.
    "devices": "accélérateurs",
    "device": "accélérateur",
    "sample/s": "échantillon/s",
    "sequence": "séquence",
    "token": "jeton",
    "replica": "réplique",
    "stage": "étage",
    "micro-batch": "micro-lot",
    "chunk": "segment",
    "samples/s": "échantillons/s",
    "sequences": "séquences",
    "tokens": "jetons",
    "replicas": "répliques",
    "stages": "étages",
    "micro-batches": "micro-lots",
    "chunks": "segments",
    "%": "%",
    "—": "—",
    # Charts drawn by the core (calculator.charts.WORDS), the published runs (calcsite.runs).
    "The chart's numbers": "Les nombres du graphique",
    "{value} (entered)": "{value} (saisi)",
    "Throughput against the number of devices": "Débit selon le nombre d’accélérateurs",
    "Speedup against the number of devices, as estimated": (
        "Accélération estimée selon le nombre d’accélérateurs"
    ),
    "Throughput, samples/s": "Débit, échantillons/s",
    "Speedup over one device": "Accélération par rapport à un accélérateur",
    "Ideal: d·v": "Idéal\u00a0: d·v",
    "Ideal: d": "Idéal\u00a0: d",
    "At E = {efficiency}": "À E = {efficiency}",
    "At the measured E = {efficiency}": "À l’efficacité mesurée, E = {efficiency}",
    "If Ê stayed at {efficiency}": "Si Ê restait à {efficiency}",
    "Estimated: d·Ê(d), Ê falling as d grows": (
        "Estimation\u00a0: d·Ê(d), Ê baissant quand d augmente"
    ),
    "Entered: d = {devices}, {throughput} samples/s": (
        "Saisi\u00a0: d = {devices}, {throughput} échantillons/s"
    ),
    "Measured: d = {devices}, {throughput} samples/s": (
        "Mesuré\u00a0: d = {devices}, {throughput} échantillons/s"
    ),
    "Entered: d = {devices}, a speedup of {speedup}": (
        "Saisi\u00a0: d = {devices}, une accélération de {speedup}"
    ),
    (
        "Ideal throughput grows in proportion to the devices: {ideal} samples/s at d = {devices}. "
        "At E = {efficiency} the cluster delivers {actual} samples/s, and the gap widens with "
        "every device added."
    ): (
        "Le débit idéal croît en proportion des accélérateurs\u00a0: {ideal} échantillons/s pour d "
        "= {devices}. À E = {efficiency}, le cluster fournit {actual} échantillons/s, et l’écart "
        "se creuse à chaque accélérateur ajouté."
    ),
    (
        "At d = {devices} the measured {measured} samples/s are {efficiency} of the ideal {ideal} "
        "samples/s; the second line carries that efficiency to other cluster sizes."
    ): (
        "Pour d = {devices}, les {measured} échantillons/s mesurés font {efficiency} des {ideal} "
        "échantillons/s idéaux\u202f; la seconde droite prolonge cette efficacité aux autres "
        "tailles de cluster."
    ),
    (
        "The estimated efficiency falls from 100% on one device to {efficiency} at d = {devices}, "
        "a speedup of {speedup} where perfect scaling would give {ideal}; the curve follows the "
        "all-reduce model up to d = {last}."
    ): (
        "L’efficacité estimée baisse de 100\u00a0% sur un accélérateur à {efficiency} pour d = "
        "{devices}, une accélération de {speedup} là où une mise à l’échelle parfaite donnerait "
        "{ideal}\u202f; la courbe suit le modèle de la réduction globale jusqu’à d = {last}."
    ),
    "Devices d": "Accélérateurs d",
    "Ideal throughput, samples/s": "Débit idéal, échantillons/s",
    "Throughput at E = {efficiency}, samples/s": "Débit à E = {efficiency}, échantillons/s",
    "Estimated efficiency Ê": "Efficacité estimée Ê",
    "Estimated speedup": "Accélération estimée",
    "Ideal speedup": "Accélération idéale",
    "Pipeline schedule: p = {stages}, m = {micro_batches}, v = {chunks}": (
        "Ordonnancement du pipeline\u00a0: p = {stages}, m = {micro_batches}, v = {chunks}"
    ),
    "Time": "Temps",
    "Stage": "Étage",
    "Forward pass": "Passe avant",
    "Backward pass": "Passe arrière",
    "Idle: the bubble": "Inactivité\u00a0: la bulle",
    "β = {beta} of the ideal compute time (Megatron-LM); σ = {sigma} of the step (GPipe)": (
        "β = {beta} du temps de calcul idéal (Megatron-LM)\u202f; σ = {sigma} du pas (GPipe)"
    ),
    (
        "Drawn in GPipe's order, every forward pass then every backward pass, each pass half a "
        "slot long; 1F1B orders them differently and idles as long."
    ): (
        "Tracé dans l’ordre de GPipe, toutes les passes avant puis toutes les passes arrière, "
        "chacune d’un demi-créneau\u202f; 1F1B les ordonne autrement, avec la même inactivité."
    ),
    (
        "Each device holds {chunks} chunks of the model; the darker boxes are its even-numbered "
        "chunks."
    ): (
        "Chaque accélérateur porte {chunks} segments du modèle\u202f; les cases plus sombres sont "
        "ses segments de numéro pair."
    ),
    (
        "Shortened where every stage is busy: {hidden} of the {total} forward passes of each stage "
        "are not drawn, and as many backward passes."
    ): (
        "Raccourci là où tous les étages travaillent\u00a0: {hidden} des {total} passes avant de "
        "chaque étage ne sont pas tracées, et autant de passes arrière."
    ),
    "Stages {first} to {last} are not drawn; each idles as long as the stages shown.": (
        "Les étages {first} à {last} ne sont pas tracés\u202f; chacun reste inactif aussi "
        "longtemps que les étages montrés."
    ),
    "At this scale a stage's work is drawn wider than it lasts.": (
        "À cette échelle, le travail d’un étage est tracé plus large qu’il ne dure."
    ),
    (
        "Each of the {stages} stages computes for {busy} slots and is idle for {idle} of the "
        "{step} slots of a step, a slot being the forward and backward pass of one micro-batch on "
        "one chunk: the bubble is {beta} of the ideal compute time, {sigma} of the step."
    ): (
        "Chacun des {stages} étages calcule pendant {busy} créneaux et reste inactif pendant "
        "{idle} des {step} créneaux d’un pas, un créneau étant la passe avant et la passe arrière "
        "d’un micro-lot sur un segment\u00a0: la bulle vaut {beta} du temps de calcul idéal, "
        "{sigma} du pas."
    ),
    "Idle before its first forward pass, slots": "Inactif avant sa première passe avant, créneaux",
    "Idle between its forward and backward passes, slots": (
        "Inactif entre ses passes avant et arrière, créneaux"
    ),
    "Idle after its last backward pass, slots": "Inactif après sa dernière passe arrière, créneaux",
    "Idle in all, slots": "Inactif en tout, créneaux",
    "Stages {first} to {last}": "Étages {first} à {last}",
    # The training planner's chart (calculator.chart_planner).
    "Memory and step time: t = {tensor}, p = {pipeline}, d = {data_parallel}, v = {interleave}": (
        "Mémoire et durée d’un pas\u00a0: t = {tensor}, p = {pipeline}, d = {data_parallel}, "
        "v = {interleave}"
    ),
    "Memory per device: {total} of {capacity}": (
        "Mémoire par accélérateur\u00a0: {total} sur {capacity}"
    ),
    "Memory per device: {total}, more than {capacity}": (
        "Mémoire par accélérateur\u00a0: {total}, plus que {capacity}"
    ),
    "Step time: {total}": "Durée d’un pas\u00a0: {total}",
    "Memory, GB": "Mémoire, Go",
    "Time, s": "Temps, s",
    "{value}\u00a0GB": "{value}\u00a0Go",
    "{value}\u00a0s": "{value}\u00a0s",
    "{part}: {amount}": "{part}\u00a0: {amount}",
    "Capacity": "Capacité",
    (
        "A device of the first stage holds {weights} of weights, {gradients} of gradients, "
        "{optimizer} of optimizer states and {activations} of activations: {total} of its "
        "{capacity}."
    ): (
        "Un accélérateur du premier étage porte {weights} de poids, {gradients} de gradients, "
        "{optimizer} d’état de l’optimiseur et {activations} d’activations\u00a0: {total} sur "
        "ses {capacity}."
    ),
    (
        "A device of the first stage would hold {weights} of weights, {gradients} of gradients, "
        "{optimizer} of optimizer states and {activations} of activations: {total}, more than "
        "its {capacity}."
    ): (
        "Un accélérateur du premier étage porterait {weights} de poids, {gradients} de "
        "gradients, {optimizer} d’état de l’optimiseur et {activations} d’activations\u00a0: "
        "{total}, plus que ses {capacity}."
    ),
    (
        "A step takes {total}: {compute} of compute, {bubble} of pipeline bubble, {tensor} of "
        "tensor-parallel traffic, {pipeline} of pipeline traffic and {data} of data-parallel "
        "traffic."
    ): (
        "Un pas dure {total}\u00a0: {compute} de calcul, {bubble} de bulle du pipeline, {tensor} "
        "de trafic du parallélisme tensoriel, {pipeline} de trafic du pipeline et {data} de "
        "trafic du parallélisme de données."
    ),
    (
        "Does not fit: {total} needed against {capacity}; the bar passes the line by what the "
        "device lacks."
    ): (
        "Ne tient pas\u00a0: {total} nécessaires pour {capacity}\u202f; la barre dépasse le trait "
        "de ce qui manque à l’accélérateur."
    ),
    (
        "The parts of a step follow one another: this first-order model overlaps no traffic "
        "with compute, so all of the data-parallel traffic is exposed."
    ): (
        "Les postes d’un pas se succèdent\u00a0: ce modèle au premier ordre ne recouvre aucun "
        "trafic par le calcul, si bien que tout le trafic du parallélisme de données s’ajoute "
        "au pas."
    ),
    "Part": "Poste",
    "Amount": "Valeur",
    (
        "Published runs. Each efficiency and speedup is computed by the measuring form; each "
        "run's name opens it with the run's numbers."
    ): (
        "Entraînements publiés. Chaque efficacité et chaque accélération sont calculées par le "
        "formulaire de mesure\u202f; le nom de chaque entraînement l’ouvre avec ses nombres."
    ),
    "Run": "Entraînement",
    "System": "Système",
    "Source and software": "Source et logiciel",
    "Baseline": "Référence",
    "Cluster throughput": "Débit du cluster",
    "Efficiency E": "Efficacité E",
    "one device: {throughput}": "un accélérateur\u00a0: {throughput}",
    "one node of {devices} devices: {throughput}": (
        "un nœud de {devices} accélérateurs\u00a0: {throughput}"
    ),
    "README, {date}": "README, {date}",
    "images/s": "images/s",
    "sequences/s": "séquences/s",
    "mixed precision": "précision mixte",
    "TF32": "TF32",
    "FP32": "FP32",
    "pre-training, phase 1": "pré-entraînement, phase 1",
    "pre-training, phase 2": "pré-entraînement, phase 2",
    # The training planner against published runs (calcsite.planner_checks).
    "Narayanan et al. 2021, Table 1": "Narayanan et al. 2021, tableau 1",
    "Korthikanti et al. 2022, Table 5": "Korthikanti et al. 2022, tableau 5",
    "Korthikanti et al. 2022, the 530B model with data parallelism (section 6.3, abstract)": (
        "Korthikanti et al. 2022, le modèle 530B avec parallélisme de données (section 6.3, résumé)"
    ),
    "{title}: {figure}.": "{title}\u00a0: {figure}.",
    (
        "achieved TFLOP/s per GPU, counted as hardware FLOPs with full recomputation (eq. 3), "
        "against the planner's HFU times the peak"
    ): (
        "TFLOP/s atteints par GPU, comptés en FLOPs matériels avec recalcul complet (éq. 3), "
        "face à la HFU du planificateur multipliée par la puissance crête"
    ),
    "seconds per iteration, against the planner's step time": (
        "secondes par itération, face à la durée d’un pas selon le planificateur"
    ),
    "Target: every row within ±{bound}.": "Objectif\u00a0: chaque ligne à ±{bound} près.",
    "Target: a mean absolute error within {bound}.": (
        "Objectif\u00a0: une erreur absolue moyenne d’au plus {bound}."
    ),
    "No target was set.": "Aucun objectif n’a été fixé.",
    "Mean absolute error: {mean}; rows within ±{band}: {within} of {rows}.": (
        "Erreur absolue moyenne\u00a0: {mean}\u202f; lignes à ±{band} près\u00a0: {within} sur "
        "{rows}."
    ),
    "Target met.": "Objectif atteint.",
    "Target not met.": "Objectif non atteint.",
    "Each model's name opens the check form with the run's layout.": (
        "Le nom de chaque modèle ouvre le formulaire de vérification avec le découpage de "
        "l’entraînement."
    ),
    "Published": "Publié",
    "Planner": "Planificateur",
    "Error": "Erreur",
    "{seconds} (from an MFU of {mfu})": "{seconds} (d’après une MFU de {mfu})",
    UI["table.open"]: "Ouvrir ce cas dans",
    "Fastest plans": "Plans les plus rapides",
    UI["presets.legend"]: "Remplir d’après",
    UI["presets.none"]: "(valeurs saisies)",
    UI["presets.source"]: "Source\u00a0:",
    "Device": "Accélérateur",
    "Fills every model field from the model's paper or released configuration.": (
        "Remplit tous les champs du modèle d’après son article ou sa configuration publiée."
    ),
    "Fills the peak and the memory per device from the vendor's data sheet.": (
        "Remplit la puissance crête et la mémoire par accélérateur d’après la fiche technique "
        "du constructeur."
    ),
    "Node and network": "Nœud et réseau",
    (
        "Fills the devices per node, both bus bandwidths and the latency with figures "
        "measured and published by NCCL's developers."
    ): (
        "Remplit les accélérateurs par nœud, les deux bandes passantes de bus et la latence "
        "avec des valeurs mesurées et publiées par les développeurs de NCCL."
    ),
    "Output layer": "Couche de sortie",
    "Tied to the input embeddings": "Partagée avec les embeddings d’entrée",
    "A matrix of its own": "Une matrice à part",
    (
        "Tied, as GPT-3 and BLOOM, or untied, as LLaMA: another V × h matrix of weights, "
        "on the last pipeline stage."
    ): (
        "Partagée, comme dans GPT-3 et BLOOM, ou distincte, comme dans LLaMA\u00a0: une autre "
        "matrice de poids V × h, sur le dernier étage du pipeline."
    ),
}

_IT: dict[str, str] = {
    "Enter a value.": "Inserire un valore.",
    "Enter a number.": "Inserire un numero.",
    "Enter a whole number.": "Inserire un numero intero.",
    "Enter {bound} or more.": "Inserire almeno {bound}.",
    "Enter a number greater than {bound}.": "Inserire un numero maggiore di {bound}.",
    "Enter {bound} or less.": "Inserire al massimo {bound}.",
    "Must be a multiple of {bound}.": "Deve essere un multiplo di {bound}.",
    UI["not_a_choice"]: "Scegliere uno dei valori dell’elenco.",
    UI["tree_allreduce_only"]: (
        "NCCL esegue ad albero solo l’all-reduce: con il partizionamento, reduce-scatter e "
        "all-gather vengono eseguiti ad anello. Scegliere l’anello."
    ),
    "Not an input of this calculator.": "Questo campo non appartiene al calcolatore.",
    UI["unknown_mode"]: "Questo calcolatore non ha questa modalità.",
    UI["unknown_calculator"]: "Questo calcolatore non esiste.",
    UI["bad_request"]: "Non è stato possibile leggere la richiesta.",
    UI["internal"]: (
        "Non è stato possibile calcolare questo caso (un difetto del calcolatore, "
        "non dei valori inseriti)."
    ),
    UI["read_grouped"]: (
        "Letto come {value}: il punto separa le migliaia. Per {other}, scrivere {other}."
    ),
    UI["super_linear"]: (
        "Oltre il 100%: scalatura super-lineare. A parità di batch per dispositivo di solito "
        "dipende dai dati (ogni nodo tiene in cache la propria parte del dataset) o da un "
        "riferimento sbagliato: verificare prima la misura su un singolo dispositivo."
    ),
    UI["static"]: "Esempio: risultati per i valori mostrati.",
    UI["loading"]: "Caricamento del calcolatore…",
    UI["ready"]: "Risultati per i valori mostrati.",
    UI["invalid"]: "Nessun risultato: correggere i campi segnalati.",
    UI["failed"]: (
        "Il calcolo dal vivo non è partito in questo browser. "
        "I risultati qui sotto sono l’esempio con i valori predefiniti."
    ),
    "Results": "Risultati",
    "Copy link to these values": "Copia il link a questi valori",
    "Link copied": "Link copiato",
    "Copy failed: the link is in the address bar": (
        "Copia non riuscita: il link è nella barra degli indirizzi"
    ),
    "Last updated: {date}": "Ultimo aggiornamento: {date}",
    "Input": "Input",
    "Output": "Risultato",
    "Unit": "Unità",
    "Accepted values": "Valori ammessi",
    "Default": "Predefinito",
    UI["reference.option"]: "{value}: {label}",
    "{mode} (default): {label}": "{mode} (predefinita): {label}",
    "{mode}: {label}": "{mode}: {label}",
    "Mode": "Modalità",
    UI["noscript"]: (
        "Il calcolo dal vivo richiede JavaScript. I risultati sono quelli dell’esempio per i "
        "valori mostrati; i valori di un link condiviso non vengono applicati."
    ),
    UI["hint.whole"]: "Un numero intero da {min} a {max}.",
    UI["hint.above"]: "Un numero maggiore di {min}, fino a {max}.",
    UI["hint.from"]: "Un numero da {min} a {max}.",
    UI["hint.up_to"]: "Un numero fino a {max}.",
    UI["hint.optional"]: "Facoltativo. {hint}",
    UI["notation.typed"]: "Digitato",
    UI["notation.page"]: "Pagina in {language}",
    UI["notation.unreadable"]: "non è un numero",
    UI["notation.two_ways"]: "{value}, con una nota (non {other})",
    UI["embed.copy"]: "Copia il codice da incorporare",
    UI["embed.copied"]: "Codice da incorporare copiato",
    UI["embed.copy_failed"]: "Copia non riuscita: il codice da incorporare è sotto il pulsante",
    UI["embed.full_page"]: "{title}: la pagina completa, con la spiegazione",
    "ten times the ideal throughput d·v": "dieci volte il throughput ideale d·v",
    "Must be a multiple of tp × pp × cp.": "Deve essere un multiplo di tp × pp × cp.",
    "Must be a multiple of the micro-batch × dp.": "Deve essere un multiplo del micro-batch × dp.",
    "With more than one chunk per device, must be a multiple of the stages.": (
        "Con più di un chunk per dispositivo, deve essere un multiplo del numero di stadi."
    ),
    "Data-parallel scaling": "Scalatura con parallelismo dei dati",
    "Effective batch size": "Dimensione effettiva del batch",
    "Pipeline bubble": "Bolla della pipeline",
    "From a scaling efficiency": "Da un’efficienza di scalatura",
    "From a measured cluster throughput": "Da un throughput misurato sul cluster",
    "Global batch from its factors": "Batch globale dai suoi fattori",
    "Accumulation steps for a target batch": "Passi di accumulo per un batch obiettivo",
    "Bubble of a pipeline schedule": "Bolla di uno schedule a pipeline",
    "Compute cluster": "Cluster di calcolo",
    "Measurements": "Misure",
    "Batch": "Batch",
    "Parallelism": "Parallelismo",
    "Pipeline schedule": "Schedule della pipeline",
    "Devices": "Dispositivi",
    "Throughput per device": "Throughput per dispositivo",
    "Scaling efficiency": "Efficienza di scalatura",
    "Throughput of one device alone": "Throughput di un dispositivo da solo",
    "Measured cluster throughput": "Throughput misurato del cluster",
    "Ideal throughput": "Throughput ideale",
    "Actual throughput": "Throughput effettivo",
    "Speedup": "Speedup",
    "Throughput lost to synchronisation": "Throughput perso nella sincronizzazione",
    "Micro-batch per replica": "Micro-batch per replica",
    "Gradient-accumulation steps": "Passi di accumulo del gradiente",
    "Devices (world size)": "Dispositivi in totale",
    "Tensor-parallel degree": "Grado di parallelismo tensoriale",
    "Pipeline-parallel degree": "Grado di parallelismo a pipeline",
    "Context-parallel degree": "Grado di parallelismo di contesto",
    "Sequence length": "Lunghezza della sequenza",
    "Target global batch": "Batch globale obiettivo",
    "Data-parallel replicas": "Repliche in parallelismo dei dati",
    "Global batch": "Batch globale",
    "Tokens per optimizer step": "Token per passo dell’ottimizzatore",
    "Micro-batches per replica per step": "Micro-batch per replica per passo",
    "Pipeline stages": "Stadi della pipeline",
    "Micro-batches per step": "Micro-batch per passo",
    "Model chunks per device": "Chunk del modello per dispositivo",
    "Bubble relative to ideal compute time": "Bolla rispetto al tempo di calcolo ideale",
    "Idle share of the step": "Quota inattiva del passo",
    "Pipeline efficiency": "Efficienza della pipeline",
    # The all-reduce estimate of data-parallel scaling.
    UI["latency_bound"]: (
        "La latenza pesa più della banda: ogni chiamata paga la latenza di ciascuno dei suoi "
        "passi. Chiamate più grandi e meno numerose (bucket più grandi) la accorciano; senza "
        "partizionamento, su molti nodi NCCL eseguirebbe questi all-reduce ad albero: da "
        "confrontare con l’algoritmo ad albero."
    ),
    "Estimated from the gradients' collectives": "Stima dalle operazioni collettive sui gradienti",
    "Gradients": "Gradienti",
    "Interconnect": "Interconnessione",
    "Compute": "Calcolo",
    "Gradient values (parameters)": "Valori del gradiente (parametri)",
    "Bytes per gradient value": "Byte per valore del gradiente",
    "Sharding": "Partizionamento",
    "None (DDP)": "Nessuno (DDP)",
    "ZeRO-1 or ZeRO-2": "ZeRO-1 o ZeRO-2",
    "ZeRO-3 or full FSDP": "ZeRO-3 o FSDP completo",
    (
        "What each device shards: ZeRO-1 and -2 move the bytes of an all-reduce, "
        "ZeRO-3 1.5 times as many."
    ): (
        "Che cosa partiziona ogni dispositivo: ZeRO-1 e ZeRO-2 spostano tanti byte quanti un "
        "all-reduce, ZeRO-3 una volta e mezza tanti."
    ),
    "Devices per node": "Dispositivi per nodo",
    "Bus bandwidth": "Banda di bus",
    "All-reduce algorithm": "Algoritmo di all-reduce",
    "Ring": "Anello",
    "Tree": "Albero",
    (
        "How NCCL runs the all-reduce: a ring, whose latency grows with d, "
        "or a tree, whose latency grows with log2 of the nodes."
    ): (
        "Come NCCL esegue l’all-reduce: ad anello, con una latenza che cresce con d, o ad "
        "albero, con una latenza che cresce con il log2 del numero di nodi."
    ),
    "Latency per step inside a node": "Latenza per passo all’interno di un nodo",
    "Latency per step across nodes": "Latenza per passo tra nodi",
    "Bucket size": "Dimensione dei bucket",
    "Compute time per step": "Tempo di calcolo per passo",
    "Overlap with compute": "Sovrapposizione con il calcolo",
    "Buckets per step": "Bucket per passo",
    "Bandwidth time": "Tempo dovuto alla banda",
    "Latency time": "Tempo dovuto alla latenza",
    "Communication time": "Tempo di comunicazione",
    "Exposed communication": "Comunicazione scoperta",
    "Estimated efficiency": "Efficienza stimata",
    "bytes": "byte",
    "byte": "byte",
    UI["too_many_layouts"]: (
        "Più di {bound} suddivisioni da esplorare: verificare piuttosto una sola suddivisione, "
        "con la modalità di verifica."
    ),
    UI["tensor_across_nodes"]: (
        "Il grado di parallelismo tensoriale supera un nodo: le collettive di ogni strato "
        "attraversano la rete."
    ),
    UI["out_of_memory"]: (
        "Non ci sta: il dispositivo più carico richiede più memoria di quanta ne abbia."
    ),
    UI["no_layout"]: (
        "Nessuna suddivisione ripartisce questi dispositivi e questo batch globale: il batch "
        "deve essere un multiplo delle repliche data-parallel, con t entro un nodo e divisore "
        "delle teste, e p divisore degli strati."
    ),
    UI["nothing_fits"]: (
        "Nessuna suddivisione entra nella memoria di un dispositivo, nemmeno con ZeRO-3 e il "
        "ricalcolo completo: servono più dispositivi, o più memoria per dispositivo."
    ),
    # The training planner.
    "Training planner": "Pianificatore dell’addestramento",
    "Search the layouts": "Esplorare le suddivisioni",
    "Check a parallel layout": "Verificare una suddivisione parallela",
    "Model": "Modello",
    "Cluster": "Cluster",
    "Layers": "Strati",
    "Hidden size": "Dimensione nascosta",
    "Attention heads": "Teste di attenzione",
    "Key-value heads": "Teste chiave-valore",
    "Must divide the attention heads; a multiple of the tensor-parallel degree.": (
        "Deve dividere il numero di teste di attenzione ed essere un multiplo del grado di "
        "parallelismo tensoriale."
    ),
    "Must divide the attention heads.": "Deve dividere il numero di teste di attenzione.",
    "MLP hidden size": "Dimensione nascosta dell’MLP",
    "MLP": "MLP",
    "GeLU (two matrices)": "GeLU (due matrici)",
    "SwiGLU (three matrices)": "SwiGLU (tre matrici)",
    "GeLU, as GPT-3, or SwiGLU, as LLaMA: a third more MLP weights at the same f.": (
        "GeLU, come GPT-3, o SwiGLU, come LLaMA: un terzo di pesi in più nell’MLP a parità di f."
    ),
    "Vocabulary": "Vocabolario",
    "Must be a multiple of the tensor-parallel degree times the pipeline stages.": (
        "Deve essere un multiplo del grado di parallelismo tensoriale per il numero di stadi "
        "della pipeline."
    ),
    "Peak per device": "Potenza di picco per dispositivo",
    "Memory per device": "Memoria per dispositivo",
    "Matrix-product efficiency": "Efficienza dei prodotti matriciali",
    "Bus bandwidth inside a node": "Banda di bus all’interno di un nodo",
    "Bus bandwidth of a node across nodes": "Banda di bus di un nodo tra nodi",
    "Latency per step": "Latenza per passo",
    (
        "Must be a multiple of the micro-batch times the data-parallel replicas, and of that "
        "times the stages when interleaving."
    ): (
        "Deve essere un multiplo del micro-batch per il numero di repliche in parallelismo dei "
        "dati e, con più di un chunk per dispositivo, di questo prodotto per il numero di stadi."
    ),
    "Micro-batch": "Micro-batch",
    "Must divide the attention heads, the key-value heads and the MLP size.": (
        "Deve dividere il numero di teste di attenzione, quello di teste chiave-valore e la "
        "dimensione nascosta dell’MLP."
    ),
    "Must divide the layers (times the chunks when interleaving).": (
        "Deve dividere il numero di strati (moltiplicato per il numero di chunk, se più di uno)."
    ),
    "More than 1 only with more than one pipeline stage.": (
        "Maggiore di 1 solo se la pipeline ha più di uno stadio."
    ),
    "ZeRO stage": "Livello di ZeRO",
    "0: nothing sharded": "0: nessun partizionamento",
    "1: optimizer states (distributed optimizer)": (
        "1: stato dell’ottimizzatore (ottimizzatore distribuito)"
    ),
    "2: and gradients": "2: e i gradienti",
    "3: and weights": "3: e i pesi",
    "What the data-parallel replicas shard; 1 is Megatron-LM's distributed optimizer.": (
        "Che cosa partizionano le repliche in parallelismo dei dati; 1 corrisponde "
        "all’ottimizzatore distribuito di Megatron-LM."
    ),
    "Activation recomputation": "Ricalcolo delle attivazioni",
    "None": "Nessuno",
    "Selective (attention scores)": "Selettivo (punteggi di attenzione)",
    "Full (every layer)": "Completo (tutti gli strati)",
    "What the backward pass recomputes instead of keeping.": (
        "Che cosa la backward pass ricalcola invece di conservarlo."
    ),
    "Sequence parallelism": "Parallelismo di sequenza",
    "On": "Attivo",
    "Off": "Disattivo",
    "Splits the LayerNorms and dropouts over the tensor-parallel ranks too.": (
        "Ripartisce anche le LayerNorm e i dropout tra i rank del parallelismo tensoriale."
    ),
    "Parameters": "Parametri",
    "Weights": "Pesi",
    "Optimizer states": "Stato dell’ottimizzatore",
    "Activations": "Attivazioni",
    "Tensor-parallel traffic": "Traffico del parallelismo tensoriale",
    "Pipeline traffic": "Traffico della pipeline",
    "Data-parallel traffic": "Traffico del parallelismo dei dati",
    "Step time": "Durata di un passo",
    "Throughput": "Throughput",
    "Model FLOP/s per device": "FLOP/s del modello per dispositivo",
    "Model FLOPs utilisation": "Utilizzo dei FLOP del modello (MFU)",
    "Hardware FLOPs utilisation": "Utilizzo dei FLOP hardware (HFU)",
    "Layouts considered": "Suddivisioni considerate",
    "Layouts that fit": "Suddivisioni che entrano in memoria",
    "Fastest step time": "Durata minima di un passo",
    "Its model FLOPs utilisation": "Il suo utilizzo dei FLOP del modello (MFU)",
    "GB": "GB",
    "TFLOP/s": "TFLOP/s",
    "tokens/s": "token/s",
    "token/s": "token/s",
    "s": "s",
    "GB/s": "GB/s",
    "MB": "MB",
    "ms": "ms",
    "\u00b5s": "\u00b5s",
    "devices": "dispositivi",
    "device": "dispositivo",
    "sample/s": "campione/s",
    "sequence": "sequenza",
    "token": "token",
    "replica": "replica",
    "stage": "stadio",
    "micro-batch": "micro-batch",
    "chunk": "chunk",
    "samples/s": "campioni/s",
    "sequences": "sequenze",
    "tokens": "token",
    "replicas": "repliche",
    "stages": "stadi",
    "micro-batches": "micro-batch",
    "chunks": "chunk",
    "%": "%",
    "—": "—",
    # Charts drawn by the core (calculator.charts.WORDS), the published runs (calcsite.runs).
    "The chart's numbers": "I numeri del grafico",
    "{value} (entered)": "{value} (inserito)",
    "Throughput against the number of devices": "Throughput in funzione del numero di dispositivi",
    "Speedup against the number of devices, as estimated": (
        "Speedup stimato in funzione del numero di dispositivi"
    ),
    "Throughput, samples/s": "Throughput, campioni/s",
    "Speedup over one device": "Speedup rispetto a un dispositivo",
    "Ideal: d·v": "Ideale: d·v",
    "Ideal: d": "Ideale: d",
    "At E = {efficiency}": "Con E = {efficiency}",
    "At the measured E = {efficiency}": "Con l’efficienza misurata, E = {efficiency}",
    "If Ê stayed at {efficiency}": "Se Ê restasse al {efficiency}",
    "Estimated: d·Ê(d), Ê falling as d grows": "Stima: d·Ê(d), con Ê che cala al crescere di d",
    "Entered: d = {devices}, {throughput} samples/s": (
        "Inserito: d = {devices}, {throughput} campioni/s"
    ),
    "Measured: d = {devices}, {throughput} samples/s": (
        "Misurato: d = {devices}, {throughput} campioni/s"
    ),
    "Entered: d = {devices}, a speedup of {speedup}": (
        "Inserito: d = {devices}, uno speedup di {speedup}"
    ),
    (
        "Ideal throughput grows in proportion to the devices: {ideal} samples/s at d = {devices}. "
        "At E = {efficiency} the cluster delivers {actual} samples/s, and the gap widens with "
        "every device added."
    ): (
        "Il throughput ideale cresce in proporzione ai dispositivi: {ideal} campioni/s con d = "
        "{devices}. Con E = {efficiency} il cluster fornisce {actual} campioni/s, e il divario si "
        "allarga a ogni dispositivo aggiunto."
    ),
    (
        "At d = {devices} the measured {measured} samples/s are {efficiency} of the ideal {ideal} "
        "samples/s; the second line carries that efficiency to other cluster sizes."
    ): (
        "Con d = {devices} i {measured} campioni/s misurati sono il {efficiency} dei {ideal} "
        "campioni/s ideali; la seconda retta estende quell’efficienza alle altre dimensioni del "
        "cluster."
    ),
    (
        "The estimated efficiency falls from 100% on one device to {efficiency} at d = {devices}, "
        "a speedup of {speedup} where perfect scaling would give {ideal}; the curve follows the "
        "all-reduce model up to d = {last}."
    ): (
        "L’efficienza stimata scende dal 100% su un dispositivo al {efficiency} con d = {devices}, "
        "uno speedup di {speedup} dove una scalatura perfetta darebbe {ideal}; la curva segue il "
        "modello dell’all-reduce fino a d = {last}."
    ),
    "Devices d": "Dispositivi d",
    "Ideal throughput, samples/s": "Throughput ideale, campioni/s",
    "Throughput at E = {efficiency}, samples/s": "Throughput con E = {efficiency}, campioni/s",
    "Estimated efficiency Ê": "Efficienza stimata Ê",
    "Estimated speedup": "Speedup stimato",
    "Ideal speedup": "Speedup ideale",
    "Pipeline schedule: p = {stages}, m = {micro_batches}, v = {chunks}": (
        "Schedule della pipeline: p = {stages}, m = {micro_batches}, v = {chunks}"
    ),
    "Time": "Tempo",
    "Stage": "Stadio",
    "Forward pass": "Forward pass",
    "Backward pass": "Backward pass",
    "Idle: the bubble": "Inattività: la bolla",
    "β = {beta} of the ideal compute time (Megatron-LM); σ = {sigma} of the step (GPipe)": (
        "β = {beta} del tempo di calcolo ideale (Megatron-LM); σ = {sigma} del passo (GPipe)"
    ),
    (
        "Drawn in GPipe's order, every forward pass then every backward pass, each pass half a "
        "slot long; 1F1B orders them differently and idles as long."
    ): (
        "Disegnato nell’ordine di GPipe, tutte le forward pass e poi tutte le backward pass, "
        "ciascuna lunga mezzo slot; 1F1B le ordina diversamente e resta inattivo altrettanto."
    ),
    (
        "Each device holds {chunks} chunks of the model; the darker boxes are its even-numbered "
        "chunks."
    ): (
        "Ogni dispositivo ospita {chunks} chunk del modello; i riquadri più scuri sono i suoi "
        "chunk di numero pari."
    ),
    (
        "Shortened where every stage is busy: {hidden} of the {total} forward passes of each stage "
        "are not drawn, and as many backward passes."
    ): (
        "Accorciato dove tutti gli stadi lavorano: {hidden} delle {total} forward pass di ogni "
        "stadio non sono disegnate, e altrettante backward pass."
    ),
    "Stages {first} to {last} are not drawn; each idles as long as the stages shown.": (
        "Gli stadi da {first} a {last} non sono disegnati; ciascuno resta inattivo quanto quelli "
        "mostrati."
    ),
    "At this scale a stage's work is drawn wider than it lasts.": (
        "A questa scala il lavoro di uno stadio è disegnato più largo di quanto duri."
    ),
    (
        "Each of the {stages} stages computes for {busy} slots and is idle for {idle} of the "
        "{step} slots of a step, a slot being the forward and backward pass of one micro-batch on "
        "one chunk: the bubble is {beta} of the ideal compute time, {sigma} of the step."
    ): (
        "Ciascuno dei {stages} stadi calcola per {busy} slot e resta inattivo per {idle} dei "
        "{step} slot di un passo, dove uno slot è la forward e la backward pass di un micro-batch "
        "su un chunk: la bolla è il {beta} del tempo di calcolo ideale, il {sigma} del passo."
    ),
    "Idle before its first forward pass, slots": "Inattivo prima della prima forward pass, slot",
    "Idle between its forward and backward passes, slots": (
        "Inattivo tra le forward e le backward pass, slot"
    ),
    "Idle after its last backward pass, slots": "Inattivo dopo l’ultima backward pass, slot",
    "Idle in all, slots": "Inattivo in tutto, slot",
    "Stages {first} to {last}": "Stadi da {first} a {last}",
    # The training planner's chart (calculator.chart_planner).
    "Memory and step time: t = {tensor}, p = {pipeline}, d = {data_parallel}, v = {interleave}": (
        "Memoria e durata di un passo: t = {tensor}, p = {pipeline}, d = {data_parallel}, "
        "v = {interleave}"
    ),
    "Memory per device: {total} of {capacity}": "Memoria per dispositivo: {total} su {capacity}",
    "Memory per device: {total}, more than {capacity}": (
        "Memoria per dispositivo: {total}, più di {capacity}"
    ),
    "Step time: {total}": "Durata di un passo: {total}",
    "Memory, GB": "Memoria, GB",
    "Time, s": "Tempo, s",
    "{value}\u00a0GB": "{value}\u00a0GB",
    "{value}\u00a0s": "{value}\u00a0s",
    "{part}: {amount}": "{part}: {amount}",
    "Capacity": "Capacità",
    (
        "A device of the first stage holds {weights} of weights, {gradients} of gradients, "
        "{optimizer} of optimizer states and {activations} of activations: {total} of its "
        "{capacity}."
    ): (
        "Un dispositivo del primo stadio contiene {weights} di pesi, {gradients} di gradienti, "
        "{optimizer} di stato dell’ottimizzatore e {activations} di attivazioni: {total} dei "
        "suoi {capacity}."
    ),
    (
        "A device of the first stage would hold {weights} of weights, {gradients} of gradients, "
        "{optimizer} of optimizer states and {activations} of activations: {total}, more than "
        "its {capacity}."
    ): (
        "Un dispositivo del primo stadio conterrebbe {weights} di pesi, {gradients} di "
        "gradienti, {optimizer} di stato dell’ottimizzatore e {activations} di attivazioni: "
        "{total}, più dei suoi {capacity}."
    ),
    (
        "A step takes {total}: {compute} of compute, {bubble} of pipeline bubble, {tensor} of "
        "tensor-parallel traffic, {pipeline} of pipeline traffic and {data} of data-parallel "
        "traffic."
    ): (
        "Un passo dura {total}: {compute} di calcolo, {bubble} di bolla della pipeline, "
        "{tensor} di traffico del parallelismo tensoriale, {pipeline} di traffico della "
        "pipeline e {data} di traffico del parallelismo dei dati."
    ),
    (
        "Does not fit: {total} needed against {capacity}; the bar passes the line by what the "
        "device lacks."
    ): (
        "Non ci sta: servono {total} contro {capacity}; la barra supera la linea di quanto "
        "manca al dispositivo."
    ),
    (
        "The parts of a step follow one another: this first-order model overlaps no traffic "
        "with compute, so all of the data-parallel traffic is exposed."
    ): (
        "Le componenti di un passo si susseguono: questo modello al primo ordine non "
        "sovrappone alcun traffico al calcolo, quindi tutto il traffico del parallelismo dei "
        "dati si aggiunge al passo."
    ),
    "Part": "Componente",
    "Amount": "Valore",
    (
        "Published runs. Each efficiency and speedup is computed by the measuring form; each "
        "run's name opens it with the run's numbers."
    ): (
        "Addestramenti pubblicati. Ogni efficienza e ogni speedup sono calcolati dal modulo di "
        "misura; il nome di ogni addestramento lo apre con i suoi numeri."
    ),
    "Run": "Addestramento",
    "System": "Sistema",
    "Source and software": "Fonte e software",
    "Baseline": "Riferimento",
    "Cluster throughput": "Throughput del cluster",
    "Efficiency E": "Efficienza E",
    "one device: {throughput}": "un dispositivo: {throughput}",
    "one node of {devices} devices: {throughput}": "un nodo da {devices} dispositivi: {throughput}",
    "README, {date}": "README, {date}",
    "images/s": "immagini/s",
    "sequences/s": "sequenze/s",
    "mixed precision": "precisione mista",
    "TF32": "TF32",
    "FP32": "FP32",
    "pre-training, phase 1": "pre-addestramento, fase 1",
    "pre-training, phase 2": "pre-addestramento, fase 2",
    # The training planner against published runs (calcsite.planner_checks).
    "Narayanan et al. 2021, Table 1": "Narayanan et al. 2021, tabella 1",
    "Korthikanti et al. 2022, Table 5": "Korthikanti et al. 2022, tabella 5",
    "Korthikanti et al. 2022, the 530B model with data parallelism (section 6.3, abstract)": (
        "Korthikanti et al. 2022, il modello 530B con parallelismo dei dati (sezione 6.3, abstract)"
    ),
    "{title}: {figure}.": "{title}: {figure}.",
    (
        "achieved TFLOP/s per GPU, counted as hardware FLOPs with full recomputation (eq. 3), "
        "against the planner's HFU times the peak"
    ): (
        "TFLOP/s raggiunti per GPU, contati in FLOP hardware con ricalcolo completo (eq. 3), "
        "a confronto con l’HFU del pianificatore moltiplicato per il picco"
    ),
    "seconds per iteration, against the planner's step time": (
        "secondi per iterazione, a confronto con la durata di un passo secondo il pianificatore"
    ),
    "Target: every row within ±{bound}.": "Obiettivo: ogni riga entro ±{bound}.",
    "Target: a mean absolute error within {bound}.": (
        "Obiettivo: un errore assoluto medio non oltre il {bound}."
    ),
    "No target was set.": "Nessun obiettivo è stato fissato.",
    "Mean absolute error: {mean}; rows within ±{band}: {within} of {rows}.": (
        "Errore assoluto medio: {mean}; righe entro ±{band}: {within} su {rows}."
    ),
    "Target met.": "Obiettivo raggiunto.",
    "Target not met.": "Obiettivo non raggiunto.",
    "Each model's name opens the check form with the run's layout.": (
        "Il nome di ogni modello apre il modulo di verifica con la suddivisione dell’addestramento."
    ),
    "Published": "Pubblicato",
    "Planner": "Pianificatore",
    "Error": "Errore",
    "{seconds} (from an MFU of {mfu})": "{seconds} (da un MFU del {mfu})",
    UI["table.open"]: "Aprire questo caso in",
    "Fastest plans": "Piani più veloci",
    UI["presets.legend"]: "Compilare da",
    UI["presets.none"]: "(valori inseriti)",
    UI["presets.source"]: "Fonte:",
    "Device": "Dispositivo",
    "Fills every model field from the model's paper or released configuration.": (
        "Compila tutti i campi del modello in base al suo articolo o alla configurazione "
        "pubblicata."
    ),
    "Fills the peak and the memory per device from the vendor's data sheet.": (
        "Compila la potenza di picco e la memoria per dispositivo in base alla scheda tecnica "
        "del produttore."
    ),
    "Node and network": "Nodo e rete",
    (
        "Fills the devices per node, both bus bandwidths and the latency with figures "
        "measured and published by NCCL's developers."
    ): (
        "Compila i dispositivi per nodo, le due bande di bus e la latenza con valori misurati "
        "e pubblicati dagli sviluppatori di NCCL."
    ),
    "Output layer": "Strato di uscita",
    "Tied to the input embeddings": "Condiviso con gli embedding di ingresso",
    "A matrix of its own": "Una matrice a sé",
    (
        "Tied, as GPT-3 and BLOOM, or untied, as LLaMA: another V × h matrix of weights, "
        "on the last pipeline stage."
    ): (
        "Condiviso, come in GPT-3 e BLOOM, o distinto, come in LLaMA: un’altra matrice di "
        "pesi V × h, sull’ultimo stadio della pipeline."
    ),
}

CATALOGS: dict[str, dict[str, str]] = {"en": {}, "fr": _FR, "it": _IT}
"""Translations by language, keyed by the English text."""

LANGUAGES: tuple[str, ...] = tuple(CATALOGS)
"""The site's languages, the default first: the one list the tests and the
benchmark read. The i18n plugin in ``mkdocs.yml`` lists the same languages in
the same order, which ``tests/site/test_languages.py`` checks."""


def tree(language: str) -> str:
    """The path of a language's tree under the site root: ``""`` for the default, ``fr/``..."""
    return "" if language == LANGUAGES[0] else f"{language}/"


def translate(language: str, english: str) -> str:
    """Return ``english`` in ``language``; English text is its own translation.

    Raises:
        KeyError: If the language has no catalog or the catalog lacks the text,
            so that a missing translation fails the build instead of showing English.
    """
    catalog = CATALOGS[language]
    if language == "en" or not english:
        return english
    return catalog[english]
