import * as THREE from 'three'; console.log(THREE.REVISION);
